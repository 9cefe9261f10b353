import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
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

/** Counts bytes through a stream and fails as soon as they pass `limit`. */
function capped(limit: number, what: string): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > limit) callback(tooLarge(limit, what));
      else callback(null, chunk);
    },
  });
}

/**
 * Reads an OTLP body: identity or gzip, at most `limit` bytes on the wire
 * (refused from Content-Length before reading) and at most `limit` bytes
 * decompressed. Gzip is inflated as a stream whose output is counted, so a
 * small bomb stops at the limit instead of being inflated whole.
 */
export async function readOtlpBody(ctx: Koa.Context, limit: number): Promise<Buffer> {
  const encoding = ctx.get('content-encoding').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity' && encoding !== 'gzip') {
    throw new AppError('unsupported_media_type', `Content-Encoding "${encoding}" is not supported; send gzip or identity.`);
  }
  if (encoding !== 'gzip') return readRawBody(ctx, limit);
  const declared = ctx.get('content-length');
  if (declared && Number(declared) > limit) {
    ctx.set('connection', 'close');
    throw tooLarge(limit, 'request body');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  const collect = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      size += chunk.length;
      callback();
    },
  });
  try {
    await pipeline(ctx.req, capped(limit, 'request body'), createGunzip(), capped(limit, 'decompressed body'), collect);
  } catch (err) {
    ctx.set('connection', 'close');
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code ?? '';
    if (code.startsWith('Z_') || code === 'ERR_ZLIB_INITIALIZATION_FAILED') {
      throw new AppError('invalid_otlp', `The gzip body cannot be decompressed: ${(err as Error).message}`);
    }
    throw err;
  }
  return Buffer.concat(chunks, size);
}
