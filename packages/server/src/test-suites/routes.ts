import { addTestSuiteTests, createTestSuite, getTestSuite, listSuiteTests, listTestSuites, removeTestSuiteTest } from '@svc/contract';
import { type Route, defineRoute } from '../http/define-route.js';
import type { SuiteService } from './service.js';

/** `/v1/test-suites` and the suite-scoped `/v1/tests`. */
export function testSuiteRoutes(suites: SuiteService): Route[] {
  return [
    defineRoute(listTestSuites, async ({ principal, query }) => {
      const page = await suites.list(principal, query);
      return { testSuites: page.items, nextPageToken: page.next };
    }),
    defineRoute(createTestSuite, async ({ principal, query, body }) => ({ testSuite: await suites.create(principal, query.projectId, body) })),
    defineRoute(getTestSuite, async ({ principal, params }) => ({ testSuite: await suites.get(principal, params.suiteId) })),
    defineRoute(addTestSuiteTests, async ({ principal, params, body }) => ({ testSuite: await suites.addTests(principal, params.suiteId, body.testIds) })),
    defineRoute(removeTestSuiteTest, async ({ principal, params }) => ({ testSuite: await suites.removeTest(principal, params.suiteId, params.testId) })),
    defineRoute(listSuiteTests, async ({ principal, query }) => {
      const page = await suites.listTests(principal, query);
      return { tests: page.items, nextPageToken: page.next };
    }),
  ];
}
