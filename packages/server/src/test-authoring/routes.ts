import { createTest, getTest, getTestVersion, listTestVersions, listTests, updateTest } from '@svc/contract';
import { type Route, defineRoute } from '../http/define-route.js';
import type { TestService } from './service.js';

/** `/api/tests` and `/api/test-versions`: viewers read, writers create and edit. */
export function testRoutes(tests: TestService): Route[] {
  return [
    defineRoute(createTest, ({ principal, body }) => tests.create(principal, body)),
    defineRoute(updateTest, ({ principal, params, body }) => tests.update(principal, params.testId, body)),
    defineRoute(listTests, async ({ principal, query }) => {
      const page = await tests.list(principal, query);
      return { items: page.items, next_cursor: page.next };
    }),
    defineRoute(getTest, ({ principal, params }) => tests.get(principal, params.testId)),
    defineRoute(listTestVersions, async ({ principal, params, query }) => {
      const page = await tests.listVersions(principal, params.testId, query);
      return { items: page.items, next_cursor: page.next };
    }),
    defineRoute(getTestVersion, ({ principal, params }) => tests.getVersion(principal, params.versionId)),
  ];
}
