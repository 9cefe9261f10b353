import Koa from 'koa';
import type { Authenticator } from './http/auth.js';
import type { Route } from './http/define-route.js';
import { errorMiddleware } from './http/error-middleware.js';
import type { Principal } from './http/principal.js';
import type { RateLimitStore } from './http/rate-limit.js';
import { requestContext } from './http/request-context.js';
import { responseRecorder } from './http/response-recorder.js';
import { mountRoutes } from './http/router.js';
import type { Logger } from './logging/logger.js';

export interface AppOptions {
  log: Logger;
  routes: readonly Route[];
  authenticator: Authenticator;
  rateLimitStore: RateLimitStore;
  rateLimitPerMinute: number;
  strictResponses: boolean;
  /** Test-only: the directory the response recorder writes to (`SVC_RECORD_RESPONSES`); null turns it off. */
  recordResponsesDir?: string | null;
  onPrincipal?: (principal: Principal) => void;
}

/** Builds the Koa application (no `listen`): request context, the error mapper, then the routes. */
export function createApp(options: AppOptions): Koa {
  const app = new Koa();
  app.silent = true; // every error is mapped and logged by errorMiddleware
  app.use(requestContext(options.log));
  if (options.recordResponsesDir) app.use(responseRecorder(options.recordResponsesDir));
  app.use(errorMiddleware());
  mountRoutes(app, options.routes, options);
  return app;
}

export type { Route } from './http/define-route.js';
export { defineRoute } from './http/define-route.js';
