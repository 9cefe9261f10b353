import { gunzipSync } from 'node:zlib';
import type Koa from 'koa';
import { readRawBody } from '../http/body.js';
import { AppError } from '../http/errors.js';

/** The two OTLP/HTTP encodings. */
export type OtlpEncoding = 'protobuf' | 'json';

/** The request's OTLP encoding from its Content-Type (parameters such as `charset` allowed); anything else is 415. */
export function otlpEncodingOf(contentType: string): OtlpEncoding {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'application/x-protobuf') return 'protobuf';
  if (type === 'application/json') return 'json';
  throw new AppError('unsupported_media_type', `Send OTLP as application/x-protobuf or application/json (got "${contentType || 'no Content-Type'}").`);
}

/** True when the request declares the protobuf encoding, whether or not the rest of it is valid. */
export function wantsProtobuf(ctx: Koa.Context): boolean {
  return ctx.get('content-type').split(';')[0]!.trim().toLowerCase() === 'application/x-protobuf';
}

function tooLarge(limit: number, what: string): AppError {
  return new AppError('payload_too_large', `The ${what} exceeds ${limit} bytes.`, { limit_bytes: limit });
}

/** An OTLP body as received: the bytes on the wire and whether they are gzip. */
export interface OtlpWireBody {
  body: Buffer;
  gzip: boolean;
}

/**
 * Reads an OTLP body as sent: identity or gzip, at most `limit` bytes on the
 * wire (refused from Content-Length before reading). Inflating is
 * `inflateOtlpBody`'s job, done where the body is decoded.
 */
export async function readOtlpWire(ctx: Koa.Context, limit: number): Promise<OtlpWireBody> {
  const encoding = ctx.get('content-encoding').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity' && encoding !== 'gzip') {
    ctx.req.resume();
    throw new AppError('unsupported_media_type', `Content-Encoding "${encoding}" is not supported; send gzip or identity.`);
  }
  return { body: await readRawBody(ctx, limit), gzip: encoding === 'gzip' };
}

/**
 * The decompressed body, at most `limit` bytes: the inflater's output is
 * capped (`maxOutputLength`), so a small gzip bomb stops at the limit instead
 * of being inflated whole. Synchronous: it runs on a decoder thread (or, for
 * an inline decoder, costs less than the thread-pool round trips of the
 * asynchronous inflater, which hands back output 16 KiB at a time).
 */
export function inflateOtlpBody(wire: OtlpWireBody, limit: number): Buffer {
  if (!wire.gzip) return wire.body;
  // Inflate into one buffer of the size the gzip trailer declares (ISIZE), so a typical batch is one
  // chunk and no concatenation; it is only a hint (capped), maxOutputLength is what bounds the output.
  const declared = wire.body.length >= 4 ? wire.body.readUInt32LE(wire.body.length - 4) : 0;
  const chunkSize = Math.min(Math.max(declared, 16 * 1024), 1024 * 1024, Math.max(limit, 64));
  try {
    return gunzipSync(wire.body, { maxOutputLength: limit, chunkSize });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(limit, 'decompressed body');
    throw new AppError('invalid_otlp', `The gzip body cannot be decompressed: ${(err as Error).message}`);
  }
}
