import {
  type BodyInputOf,
  type QueryInputOf,
  type TestObject,
  type TestVersionObject,
  createTest,
  getTest,
  getTestVersion,
  listTestVersions,
  listTests,
  updateTest,
} from '@svc/contract';
import { PagedList } from '../core/pagination.js';
import type { Transport } from '../core/transport.js';

export type TestCreateParams = BodyInputOf<typeof createTest>;
/** An edit: the version it starts from plus the fields to replace. */
export type TestUpdateParams = Omit<BodyInputOf<typeof updateTest>, 'expected_version_id'> & { expectedVersionId: string };
export type TestListFilter = Omit<NonNullable<QueryInputOf<typeof listTests>>, 'cursor'>;

/**
 * Tests and their immutable versions.
 * @example
 * const test = await svc.tests.create({ name: 'refund', scenario: '...', expected_behaviors: ['offers a refund'] });
 * const edited = await svc.tests.update(test.id, { expectedVersionId: test.version_id, scenario: '...' });
 */
export class TestsResource {
  constructor(private readonly t: Transport) {}

  /** Creates a test at version 1. */
  create(body: TestCreateParams): Promise<TestObject> {
    return this.t.request(createTest, { body });
  }

  /**
   * Edits a test. A content change mints the next version; a stale
   * `expectedVersionId` throws `ConflictError` (code `version_conflict`,
   * `details.current_version_id`). Not retried: a lost response would replay as a conflict.
   */
  update(testId: string, { expectedVersionId, ...changes }: TestUpdateParams): Promise<TestObject> {
    return this.t.request(updateTest, { params: { testId }, body: { expected_version_id: expectedVersionId, ...changes } });
  }

  /** One test at its current version. */
  get(testId: string): Promise<TestObject> {
    return this.t.request(getTest, { params: { testId } });
  }

  /** Every test of the project, newest first: `for await (const t of svc.tests.list({ project: 'default' }))`. */
  list(filter: TestListFilter = {}): PagedList<TestObject> {
    return new PagedList(async (cursor) => {
      const page = await this.t.request(listTests, { query: { ...filter, cursor } });
      return { items: page.items, next: page.next_cursor };
    });
  }

  /** One immutable version (`tstv_...`). */
  getVersion(versionId: string): Promise<TestVersionObject> {
    return this.t.request(getTestVersion, { params: { versionId } });
  }

  /** Every version of a test, newest first. */
  listVersions(testId: string, options: { limit?: number } = {}): PagedList<TestVersionObject> {
    return new PagedList(async (cursor) => {
      const page = await this.t.request(listTestVersions, { params: { testId }, query: { limit: options.limit, cursor } });
      return { items: page.items, next: page.next_cursor };
    });
  }
}
