import type Koa from 'koa';
import type { BodyOf, HeadersOf, Operation, ParamsOf, QueryOf, ResponseOf } from '@svc/contract';
import type { Logger } from '../logging/logger.js';
import type { ErrorResponse } from './error-middleware.js';
import type { Principal } from './principal.js';

/** What a handler receives: parsed, typed input and the caller. */
export interface RouteInput<T extends Operation> {
  params: ParamsOf<T>;
  query: QueryOf<T>;
  body: BodyOf<T>;
  /** The request headers the operation declares, parsed. */
  headers: HeadersOf<T>;
  principal: T['auth'] extends 'none' ? undefined : Principal;
  log: Logger;
  /** The Koa context, for operations that read raw bodies or set headers. */
  ctx: Koa.Context;
  /** Answer with a status other than the operation's success status (same body shape, e.g. health 503). */
  setStatus(status: number): void;
}

export type RouteHandler<T extends Operation> = (input: RouteInput<T>) => Promise<ResponseOf<T>>;

/**
 * Writes a refusal in the operation's own format. Only for operations whose
 * clients cannot read the JSON error body (OTLP protobuf exporters); it also
 * receives the router's refusals (authentication, rate limit, method).
 */
export type ErrorRenderer = (ctx: Koa.Context, refusal: ErrorResponse) => void;

/** A declared operation bound to its handler. */
export interface Route {
  operation: Operation;
  handler: RouteHandler<Operation>;
  renderError?: ErrorRenderer;
}

/**
 * Binds a handler to an operation of the route table. The router validates
 * input and authenticates before the handler runs; the handler returns the
 * success body (or sets the response itself for raw-body operations).
 */
export function defineRoute<T extends Operation>(operation: T, handler: RouteHandler<T>, options: { renderError?: ErrorRenderer } = {}): Route {
  return { operation, handler: handler as unknown as RouteHandler<Operation>, ...options };
}
