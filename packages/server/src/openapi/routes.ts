import { buildOpenApiDocument, getOpenApi, operations } from '@svc/contract';
import { type Route, defineRoute } from '../http/define-route.js';

/** `GET /openapi.json`, built once from the route table that also validates requests. */
export function openApiRoutes(): Route[] {
  const document = buildOpenApiDocument(operations);
  return [defineRoute(getOpenApi, async () => document)];
}
