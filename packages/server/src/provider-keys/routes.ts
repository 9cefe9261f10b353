import { deleteProviderKey, listProviderKeys, putProviderKey } from '@svc/contract';
import { type Route, defineRoute } from '../http/define-route.js';
import type { ProviderKeyService } from './service.js';

/** `/api/provider-keys`: org-wide admin credentials only. */
export function providerKeyRoutes(keys: ProviderKeyService): Route[] {
  return [
    defineRoute(putProviderKey, ({ principal, params, body }) => keys.put(principal, params.provider, body.api_key)),
    defineRoute(listProviderKeys, async ({ principal }) => ({ provider_keys: await keys.list(principal) })),
    defineRoute(deleteProviderKey, async ({ principal, params }) => {
      await keys.remove(principal, params.provider);
      return undefined;
    }),
  ];
}
