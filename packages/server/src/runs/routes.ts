import { cancelRun, createRun, getRun, listRunEvents, listRuns } from '@svc/contract';
import { type Route, defineRoute } from '../http/define-route.js';
import type { RunService } from './service.js';

/** `/api/runs`: viewers read, members and admins create and cancel. */
export function runRoutes(runs: RunService): Route[] {
  return [
    defineRoute(createRun, async ({ principal, headers, body, ctx }) => {
      const { run, replayed } = await runs.create(principal, body, headers['idempotency-key']);
      if (replayed) ctx.set('Idempotent-Replayed', 'true');
      return run;
    }),
    defineRoute(listRuns, async ({ principal, query }) => {
      const page = await runs.list(principal, query);
      return { items: page.items, next_cursor: page.next };
    }),
    defineRoute(getRun, ({ principal, params }) => runs.get(principal, params.runId)),
    defineRoute(cancelRun, ({ principal, params }) => runs.cancel(principal, params.runId)),
    defineRoute(listRunEvents, ({ principal, params, query }) => runs.events(principal, params.runId, query)),
  ];
}
