import { appendFileSync, mkdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type Koa from 'koa';
import { stateOf } from './request-context.js';

/** One recorded response: what the contract check of the reliability suite validates. */
export interface RecordedResponse {
  /** The operation the router matched; absent for unknown paths and methods. */
  operationId?: string;
  method: string;
  path: string;
  status: number;
  /** The media type without parameters; null when there is no body. */
  contentType: string | null;
  /** Every response header, lower-case names. */
  headers: Record<string, string>;
  /** JSON bodies as sent, binary bodies as base64 (`bodyEncoding`), null when empty. */
  body: unknown;
  bodyEncoding?: 'base64';
}

function bodyOf(ctx: Koa.Context): Pick<RecordedResponse, 'body' | 'bodyEncoding'> {
  const body: unknown = ctx.body;
  if (body === undefined || body === null) return { body: null };
  if (Buffer.isBuffer(body)) return { body: body.toString('base64'), bodyEncoding: 'base64' };
  if (typeof body === 'string') return { body };
  if (typeof (body as { pipe?: unknown }).pipe === 'function') return { body: null }; // a stream: nothing to record
  return { body };
}

/**
 * A test-only recorder (`SVC_RECORD_RESPONSES=<dir>`, never on by default, not
 * a log): appends one JSON line per response to a file of its own in `dir`, so
 * the contract suite can validate every response an end-to-end run produced,
 * whichever client sent the request. The line is written synchronously before
 * the response leaves, so a killed server never leaves a half line behind.
 */
export function responseRecorder(dir: string): Koa.Middleware {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `responses-${process.pid}-${randomBytes(4).toString('hex')}.jsonl`);
  return async (ctx, next) => {
    try {
      await next();
    } finally {
      const entry: RecordedResponse = {
        ...(stateOf(ctx).operationId ? { operationId: stateOf(ctx).operationId } : {}),
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        contentType: ctx.body === undefined || ctx.body === null ? null : ctx.response.type || null,
        headers: Object.fromEntries(Object.entries(ctx.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)])),
        ...bodyOf(ctx),
      };
      appendFileSync(file, JSON.stringify(entry) + '\n');
    }
  };
}
