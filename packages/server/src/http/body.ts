import type Koa from 'koa';
import { AppError } from './errors.js';

export const JSON_BODY_LIMIT = 1024 * 1024;
/**
 * Deepest nesting of arrays and objects read from a JSON body. Free-form
 * members (mock tool answers, connection config) are stored and hashed by
 * recursive code, so an unbounded depth would overflow the stack (a 500).
 */
export const JSON_DEPTH_LIMIT = 64;

function tooLarge(limit: number): AppError {
  return new AppError('payload_too_large', `The request body exceeds ${limit} bytes.`, { limit_bytes: limit });
}

/**
 * Reads the raw request body up to `limit` bytes. A declared
 * `Content-Length` over the limit is refused before reading; a body that
 * grows past it is refused as soon as it does. Either way the rest of the
 * body is drained and discarded rather than the connection being cut, so the
 * client always receives the refusal (a reset would lose it); the server's
 * request timeout bounds a client that never stops sending.
 */
export function readRawBody(ctx: Koa.Context, limit: number): Promise<Buffer> {
  const req = ctx.req;
  const declared = ctx.get('content-length');
  if (declared && Number(declared) > limit) {
    req.resume();
    return Promise.reject(tooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
    };
    req.on('data', (chunk: Buffer) => {
      if (settled) return; // draining after a refusal
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        settle(() => reject(tooLarge(limit)));
      } else chunks.push(chunk);
    });
    req.once('end', () => settle(() => resolve(Buffer.concat(chunks, size))));
    // A connection reset or the request timeout ends the body early: the client's doing, not a server error.
    const cut = () => settle(() => reject(new AppError('invalid_request', 'The connection closed before the whole body arrived.')));
    req.once('error', cut);
    req.once('close', cut);
  });
}

/** True for `application/json` and `application/*+json`, with any parameters. */
export function isJsonMediaType(contentType: string): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/** True when the JSON text nests arrays and objects deeper than `limit` (brackets inside strings do not count). */
export function jsonNestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * Reads a JSON body. An empty body reads as `{}` so that validation names the
 * missing fields; a non-JSON media type, unparseable text or nesting past
 * `JSON_DEPTH_LIMIT` is 400 `invalid_request`, whose message never quotes the body.
 */
export async function readJsonBody(ctx: Koa.Context, limit = JSON_BODY_LIMIT): Promise<unknown> {
  const raw = await readRawBody(ctx, limit);
  if (raw.length === 0) return {};
  const contentType = ctx.get('content-type');
  if (!isJsonMediaType(contentType)) {
    throw new AppError('invalid_request', `Send the body as application/json (got "${contentType || 'no Content-Type'}").`);
  }
  const text = raw.toString('utf8');
  if (jsonNestsDeeperThan(text, JSON_DEPTH_LIMIT)) {
    throw new AppError('invalid_request', `The body nests arrays and objects deeper than ${JSON_DEPTH_LIMIT} levels.`, { depth_limit: JSON_DEPTH_LIMIT });
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new AppError('invalid_request', `The body is not valid JSON${jsonErrorPosition(err)}.`);
  }
}

/**
 * Where the JSON parser stopped, when it says. Never its whole message: V8
 * quotes the text around the error, and a body may carry a credential.
 */
function jsonErrorPosition(err: unknown): string {
  const position = /at position (\d+)/.exec((err as Error).message)?.[1];
  return position ? ` (at character ${position})` : '';
}
