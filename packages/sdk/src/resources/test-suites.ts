import {
  type BodyInputOf,
  type TestObjectV1,
  type TestSuiteObject,
  addTestSuiteTests,
  createTestSuite,
  getTestSuite,
  listSuiteTests,
  listTestSuites,
  removeTestSuiteTest,
} from '@svc/contract';
import { PagedList } from '../core/pagination.js';
import type { Transport } from '../core/transport.js';

/** Test suites: named sets of a project's tests. */
export class TestSuitesResource {
  constructor(private readonly t: Transport) {}

  /** Creates a suite in `projectId` (optional with a project-scoped key). */
  async create(body: BodyInputOf<typeof createTestSuite>, options: { projectId?: string } = {}): Promise<TestSuiteObject> {
    return (await this.t.request(createTestSuite, { query: options, body })).testSuite;
  }

  /** Every suite of the project, newest first. */
  list(options: { projectId?: string; pageSize?: number } = {}): PagedList<TestSuiteObject> {
    return new PagedList(async (pageToken) => {
      const page = await this.t.request(listTestSuites, { query: { ...options, pageToken } });
      return { items: page.testSuites, next: page.nextPageToken };
    });
  }

  async get(suiteId: string): Promise<TestSuiteObject> {
    return (await this.t.request(getTestSuite, { params: { suiteId } })).testSuite;
  }

  /** Adds tests (all or nothing; members already present stay). Safe to repeat. */
  async addTests(suiteId: string, testIds: string[]): Promise<TestSuiteObject> {
    return (await this.t.request(addTestSuiteTests, { params: { suiteId }, body: { testIds }, idempotent: true })).testSuite;
  }

  async removeTest(suiteId: string, testId: string): Promise<TestSuiteObject> {
    return (await this.t.request(removeTestSuiteTest, { params: { suiteId, testId } })).testSuite;
  }

  /** The suite's tests at their current versions (camelCase), newest first. */
  listTests(suiteId: string, options: { pageSize?: number } = {}): PagedList<TestObjectV1> {
    return new PagedList(async (pageToken) => {
      const page = await this.t.request(listSuiteTests, { query: { suiteId, ...options, pageToken } });
      return { items: page.tests, next: page.nextPageToken };
    });
  }
}
