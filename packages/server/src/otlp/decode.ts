import { AppError } from '../http/errors.js';
import { type OtlpEncoding, type OtlpWireBody, inflateOtlpBody } from './body.js';
import type { SpanColumns } from './columns.js';
import { decodeJsonExport } from './decode-json.js';
import { decodeProtobufSpans } from './decode-protobuf.js';
import { OtlpDecodeError } from './model.js';
import { toColumns } from './records.js';

/**
 * The whole decoding of one request body, from wire bytes to span-store
 * columns: inflate (gzip), decode (protobuf or JSON), validate. Synchronous
 * and self-contained, so it runs the same inline or on a decoder thread.
 * Refusals are `AppError`s (`payload_too_large`, `invalid_otlp`).
 */
export function decodeOtlpSpans(encoding: OtlpEncoding, wire: OtlpWireBody, limit: number): SpanColumns {
  const body = inflateOtlpBody(wire, limit);
  try {
    return encoding === 'protobuf' ? decodeProtobufSpans(body) : toColumns(decodeJsonExport(body));
  } catch (err) {
    if (err instanceof OtlpDecodeError) throw new AppError('invalid_otlp', err.message);
    throw err;
  }
}
