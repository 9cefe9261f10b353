import type Koa from 'koa';
import { AppError } from './errors.js';

export const JSON_BODY_LIMIT = 1024 * 1024;

function tooLarge(limit: number): AppError {
  return new AppError('payload_too_large', `The request body exceeds ${limit} bytes.`, { limit_bytes: limit });
}

/**
 * Reads the raw request body up to `limit` bytes. A declared
 * `Content-Length` over the limit is refused before reading; a body that
 * grows past it is refused as soon as it does.
 */
export async function readRawBody(ctx: Koa.Context, limit: number): Promise<Buffer> {
  const declared = ctx.get('content-length');
  if (declared && Number(declared) > limit) {
    ctx.set('connection', 'close');
    throw tooLarge(limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      ctx.set('connection', 'close');
      throw tooLarge(limit);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** True for `application/json` and `application/*+json`, with any parameters. */
export function isJsonMediaType(contentType: string): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/**
 * Reads a JSON body. An empty body reads as `{}` so that validation names the
 * missing fields; a non-JSON media type or unparseable text is 400 `invalid_request`.
 */
export async function readJsonBody(ctx: Koa.Context, limit = JSON_BODY_LIMIT): Promise<unknown> {
  const raw = await readRawBody(ctx, limit);
  if (raw.length === 0) return {};
  const contentType = ctx.get('content-type');
  if (!isJsonMediaType(contentType)) {
    throw new AppError('invalid_request', `Send the body as application/json (got "${contentType || 'no Content-Type'}").`);
  }
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (err) {
    throw new AppError('invalid_request', `The body is not valid JSON: ${(err as Error).message}`);
  }
}
