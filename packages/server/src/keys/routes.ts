import { createKey, listKeys, revokeKey } from '@svc/contract';
import { type Route, defineRoute } from '../http/define-route.js';
import type { KeyService } from './service.js';

/** `/api/keys` operations. */
export function keyRoutes(keys: KeyService): Route[] {
  return [
    defineRoute(createKey, ({ principal, body }) => keys.create(principal, body)),
    defineRoute(listKeys, async ({ principal }) => ({ keys: await keys.list(principal) })),
    defineRoute(revokeKey, ({ principal, params }) => keys.revoke(principal, params.apiKeyId)),
  ];
}
