import Router from '@koa/router';
import type Koa from 'koa';
import type { Operation } from '@svc/contract';
import { type Authenticator, authenticate } from './auth.js';
import { readJsonBody } from './body.js';
import type { Route } from './define-route.js';
import { toErrorResponse } from './error-middleware.js';
import { AppError } from './errors.js';
import type { Principal } from './principal.js';
import { type RateLimitStore, enforceRateLimit } from './rate-limit.js';
import { stateOf } from './request-context.js';
import { parseBody, parseRequestPart, toIssues } from './validate.js';

export interface RouterDeps {
  authenticator: Authenticator;
  rateLimitStore: RateLimitStore;
  rateLimitPerMinute: number;
  strictResponses: boolean;
  /** Told of every successful key authentication (coalesced `last_used_at`). */
  onPrincipal?: (principal: Principal) => void;
}

const toKoaPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** Koa gives repeated query names as arrays; the schemas decide whether that is valid. */
function plainQuery(ctx: Koa.Context): Record<string, string | string[]> {
  return { ...ctx.query } as Record<string, string | string[]>;
}

/** Reads an operation's JSON body; a small-body operation answers an oversized one with 400. */
async function readBody(ctx: Koa.Context, op: Operation): Promise<unknown> {
  if (op.smallBodyBytes === undefined) return readJsonBody(ctx);
  try {
    return await readJsonBody(ctx, op.smallBodyBytes);
  } catch (err) {
    if (err instanceof AppError && err.code === 'payload_too_large') {
      throw new AppError('invalid_request', `This operation takes a body of at most ${op.smallBodyBytes} bytes.`, { limit_bytes: op.smallBodyBytes });
    }
    throw err;
  }
}

/** Wraps a route whose refusals have their own format, so the router's refusals use it too. */
function withRenderer(route: Route, middleware: Koa.Middleware): Koa.Middleware {
  const render = route.renderError;
  if (!render) return middleware;
  return async (ctx, next) => {
    try {
      await middleware(ctx, next);
    } catch (err) {
      render(ctx, toErrorResponse(err, ctx));
    }
  };
}

function handle(route: Route, deps: RouterDeps): Koa.Middleware {
  const op: Operation = route.operation;
  return withRenderer(route, async (ctx) => {
    const state = stateOf(ctx);
    state.operationId = op.operationId;
    const principal = await authenticate(ctx, op.auth, deps.authenticator);
    if (principal) {
      state.organizationId = principal.organizationId;
      state.keyId = principal.keyId;
      await enforceRateLimit(ctx, deps.rateLimitStore, principal.organizationId, deps.rateLimitPerMinute);
      deps.onPrincipal?.(principal);
    }
    const params = op.params ? parseRequestPart(op.params, ctx.params, 'path') : undefined;
    const query = op.query ? parseRequestPart(op.query, plainQuery(ctx), 'query') : undefined;
    const headers = op.headers ? parseRequestPart(op.headers, ctx.headers, 'header') : undefined;
    const body = op.body ? parseBody(op.body, await readBody(ctx, op)) : undefined;
    let status: number = op.status;
    const result = await route.handler({ params, query, headers, body, principal: principal as Principal, log: state.log, ctx, setStatus: (s) => (status = s) });
    if (result === undefined && (op.rawBody || op.responseMediaTypes)) return; // the handler wrote the response
    const schema = status === op.status ? op.response : op.otherResponses?.[status]?.schema;
    if (deps.strictResponses && schema) {
      const checked = schema.safeParse(result);
      if (!checked.success) {
        state.log.error('response does not match the contract', { operation: op.operationId, issues: toIssues(checked.error) });
        throw new Error(`response of ${op.operationId} does not match its schema`);
      }
    }
    ctx.status = status;
    if (status !== 204) ctx.body = result;
  });
}

/** Mounts the routes and answers unknown paths with 404 and known paths with another method with 405. */
export function mountRoutes(app: Koa, routes: readonly Route[], deps: RouterDeps): void {
  const router = new Router();
  for (const route of routes) router[route.operation.method](toKoaPath(route.operation.path), handle(route, deps));
  app.use(router.routes());
  app.use(async (ctx) => {
    const matched = router.match(ctx.path, ctx.method);
    if (matched.path.length > 0) {
      const allowed = new Set(matched.path.flatMap((layer) => layer.methods));
      ctx.set('Allow', [...allowed].join(', '));
      const refusal = new AppError('method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}; allowed: ${[...allowed].join(', ')}.`);
      const own = routes.find((r) => r.renderError && matched.path.some((layer) => layer.path === toKoaPath(r.operation.path)));
      if (own?.renderError) return own.renderError(ctx, toErrorResponse(refusal, ctx));
      throw refusal;
    }
    throw new AppError('not_found', `No operation at ${ctx.method} ${ctx.path}.`);
  });
}
