import { getHealth } from '@svc/contract';
import { type Route, defineRoute } from '../http/define-route.js';

/** Something that can prove it answers with a real query. */
export interface Pingable {
  ping(): Promise<boolean> | boolean;
}

/** `GET /health`: 200 when both stores answer a real query, else 503 naming the failing one. */
export function healthRoutes(stores: { relational: Pingable; analytics: Pingable }): Route[] {
  return [
    defineRoute(getHealth, async ({ setStatus }) => {
      const [relational, analytics] = await Promise.all([stores.relational.ping(), stores.analytics.ping()]);
      const ok = relational && analytics;
      if (!ok) setStatus(503);
      const reach = (up: boolean): 'reachable' | 'unreachable' => (up ? 'reachable' : 'unreachable');
      return { status: ok ? 'ok' : 'unavailable', relational: reach(relational), analytics: reach(analytics) } as const;
    }),
  ];
}
