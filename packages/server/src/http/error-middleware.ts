import type Koa from 'koa';
import type { ErrorBody, ErrorCode } from '@svc/contract';
import { describeError } from '../logging/logger.js';
import { AppError } from './errors.js';
import { stateOf } from './request-context.js';

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'invalid_request',
  401: 'not_authenticated',
  403: 'not_permitted',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'validation_failed',
  429: 'too_many_requests',
  503: 'unavailable',
};

/** Writes an error body on the context. */
export function sendError(ctx: Koa.Context, status: number, body: ErrorBody, headers: Record<string, string> = {}): void {
  ctx.status = status;
  for (const [name, value] of Object.entries(headers)) ctx.set(name, value);
  ctx.body = body;
}

/** A refusal ready to be written: status, error body and extra headers. */
export interface ErrorResponse {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
}

/**
 * Maps a thrown value to its refusal: `AppError` keeps its status and code,
 * errors carrying a 4xx HTTP status map by status, anything else is a 500
 * `internal_error` logged with its details (never put on the wire).
 */
export function toErrorResponse(err: unknown, ctx: Koa.Context): ErrorResponse {
  if (err instanceof AppError) {
    const body: ErrorBody = { error: err.code, message: err.message };
    if (err.details) body.details = err.details;
    return { status: err.status, body, headers: err.headers };
  }
  const status = (err as { status?: number }).status;
  if (typeof status === 'number' && status >= 400 && status < 500 && CODE_BY_STATUS[status]) {
    return { status, body: { error: CODE_BY_STATUS[status]!, message: (err as Error).message || 'Request refused.' }, headers: {} };
  }
  stateOf(ctx).log.error('unhandled error', { ...describeError(err), method: ctx.method, path: ctx.path });
  return { status: 500, body: { error: 'internal_error', message: 'An unexpected error occurred. The request id identifies it in the server log.' }, headers: {} };
}

/**
 * The single error mapper: `AppError` keeps its status and code, errors
 * carrying an HTTP status (Koa's, the body reader's) map by status, anything
 * else is a 500 `internal_error` whose details stay in the log, never on the wire.
 */
export function errorMiddleware(): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const { status, body, headers } = toErrorResponse(err, ctx);
      sendError(ctx, status, body, headers);
    }
  };
}
