import type Koa from 'koa';
import { randomUUID } from 'node:crypto';
import type { Logger } from '../logging/logger.js';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Per-request state shared by the middlewares. */
export interface RequestState {
  requestId: string;
  log: Logger;
  organizationId?: string;
  keyId?: string | null;
  /** The operation the router matched (for the test-only response recorder). */
  operationId?: string;
}

/**
 * Assigns the request id (the client's `x-request-id` when it is sane, else a
 * UUID), echoes it, and writes one access-log line per request. The line
 * carries the path without its query string and never a header value.
 */
export function requestContext(log: Logger): Koa.Middleware {
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const state: RequestState = { requestId, log: log.child({ request_id: requestId }) };
    ctx.state.svc = state;
    ctx.set('x-request-id', requestId);
    ctx.set('cache-control', 'no-store');
    ctx.set('x-content-type-options', 'nosniff');
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const fields = {
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        duration_ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
        organization_id: state.organizationId,
        key_id: state.keyId ?? undefined,
      };
      if (ctx.status >= 500) state.log.error('request', fields);
      else if (ctx.status >= 400) state.log.warn('request', fields);
      else state.log.info('request', fields);
    }
  };
}

/** The request state set by `requestContext`. */
export function stateOf(ctx: Koa.Context): RequestState {
  return ctx.state.svc as RequestState;
}
