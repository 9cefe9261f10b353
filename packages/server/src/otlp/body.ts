import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
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

const gunzipCapped = promisify(gunzip);

/**
 * Reads an OTLP body: identity or gzip, at most `limit` bytes on the wire
 * (refused from Content-Length before reading) and at most `limit` bytes
 * decompressed: the inflater's output is capped (`maxOutputLength`), so a
 * small gzip bomb stops at the limit instead of being inflated whole.
 */
export async function readOtlpBody(ctx: Koa.Context, limit: number): Promise<Buffer> {
  const encoding = ctx.get('content-encoding').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity' && encoding !== 'gzip') {
    ctx.req.resume();
    throw new AppError('unsupported_media_type', `Content-Encoding "${encoding}" is not supported; send gzip or identity.`);
  }
  const wire = await readRawBody(ctx, limit);
  if (encoding !== 'gzip') return wire;
  try {
    return await gunzipCapped(wire, { maxOutputLength: limit });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(limit, 'decompressed body');
    throw new AppError('invalid_otlp', `The gzip body cannot be decompressed: ${(err as Error).message}`);
  }
}
