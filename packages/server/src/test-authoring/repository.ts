import type { LookupScope } from '../http/principal.js';
import { newId } from '../shared/ids.js';
import type { RelationalStore } from '../storage/sqlite/connection.js';
import { type Page, isUniqueViolation, keysetPage } from '../storage/sqlite/keyset.js';
import { type TestContent, contentHash } from './content.js';
import { type TestRecord, type TestRow, type TestVersionRecord, type VersionRow, type VersionWithTestRow, contentOf, toTestRecord, toVersionRecord } from './rows.js';
import { type NewTest, TestWrites } from './writes.js';

/** An edit: replacements of the fields sent; `personas` carries the references and the ids they resolved to. */
export interface TestChange {
  expectedVersionId: string;
  name?: string | undefined;
  scenario?: string | undefined;
  expectedBehaviors?: string[] | undefined;
  personas?: { refs: string[]; ids: string[] } | undefined;
  mockTools?: TestContent['mockTools'] | undefined;
}

export type TestUpdate =
  | { kind: 'ok'; test: TestRecord; minted: boolean }
  | { kind: 'not_found' }
  | { kind: 'conflict'; currentVersionId: string }
  | { kind: 'name_taken' };

type PageRequest = { afterId?: string | undefined; limit: number };

export interface TestRepository {
  /** Inserts a test at version 1; null when the name is taken in the project. */
  create(test: Omit<NewTest, 'id' | 'versionId'>): Promise<TestRecord | null>;
  /** Compare-and-mint in one transaction: see `SqliteTestRepository.update`. */
  update(scope: LookupScope, testId: string, change: TestChange, at: string): Promise<TestUpdate>;
  get(scope: LookupScope, testId: string): Promise<TestRecord | null>;
  /** The tests of a project with these ids, in the order of `ids` (absent ones skipped). */
  getMany(projectId: string, ids: readonly string[]): Promise<TestRecord[]>;
  list(projectId: string, page: PageRequest): Promise<Page<TestRecord>>;
  getVersion(scope: LookupScope, versionId: string): Promise<TestVersionRecord | null>;
  /** Versions of a test, newest first; null when the test is not visible. */
  listVersions(scope: LookupScope, testId: string, page: PageRequest): Promise<Page<TestVersionRecord> | null>;
}

function scopeWhere(scope: LookupScope, alias = ''): { sql: string; params: unknown[] } {
  const p = alias ? `${alias}.` : '';
  return scope.projectId
    ? { sql: `${p}organization_id = ? AND ${p}project_id = ?`, params: [scope.organizationId, scope.projectId] }
    : { sql: `${p}organization_id = ?`, params: [scope.organizationId] };
}

/** Tests and their immutable versions in the relational store. */
export class SqliteTestRepository implements TestRepository {
  private readonly writes: TestWrites;

  constructor(private readonly store: RelationalStore) {
    this.writes = new TestWrites(store.db);
  }

  async create(input: Omit<NewTest, 'id' | 'versionId'>): Promise<TestRecord | null> {
    const test: NewTest = { ...input, id: newId('tst_'), versionId: newId('tstv_') };
    try {
      this.store.immediate(() => this.writes.insertTest(test));
    } catch (err) {
      if (isUniqueViolation(err)) return null;
      throw err;
    }
    return this.get({ organizationId: test.organizationId, projectId: test.projectId }, test.id);
  }

  /**
   * Refuses a stale `expectedVersionId`, then mints version N+1 only when the
   * content differs from the current version, and renames when the name
   * differs — all inside one immediate transaction, so of concurrent edits
   * from one version exactly one wins and the rest see a conflict.
   */
  async update(scope: LookupScope, testId: string, change: TestChange, at: string): Promise<TestUpdate> {
    const where = scopeWhere(scope);
    const db = this.store.db;
    try {
      return this.store.immediate((): TestUpdate => {
        const test = db.prepare(`SELECT * FROM tests WHERE id = ? AND ${where.sql}`).get(testId, ...where.params) as TestRow | undefined;
        if (!test) return { kind: 'not_found' };
        if (test.current_version_id !== change.expectedVersionId) return { kind: 'conflict', currentVersionId: test.current_version_id };
        const current = contentOf(db.prepare('SELECT * FROM test_versions WHERE id = ?').get(test.current_version_id) as VersionRow);
        const next: TestContent = {
          scenario: change.scenario ?? current.scenario,
          expectedBehaviors: change.expectedBehaviors ?? current.expectedBehaviors,
          personas: change.personas?.refs ?? current.personas,
          personaIds: change.personas?.ids ?? current.personaIds,
          mockTools: change.mockTools ?? current.mockTools,
        };
        const mint = contentHash(next) !== contentHash(current);
        const name = change.name ?? test.name;
        if (!mint && name === test.name) return { kind: 'ok', test: toTestRecord(test, current), minted: false };
        let versionId = test.current_version_id;
        let version = test.current_version;
        if (mint) {
          versionId = newId('tstv_');
          version += 1;
          this.writes.insertVersion({ id: versionId, testId, organizationId: test.organization_id, projectId: test.project_id, version, content: next, at });
        }
        db.prepare('UPDATE tests SET name = ?, current_version_id = ?, current_version = ?, updated_at = ? WHERE id = ?').run(name, versionId, version, at, testId);
        const updated: TestRow = { ...test, name, current_version_id: versionId, current_version: version, updated_at: at };
        return { kind: 'ok', test: toTestRecord(updated, mint ? next : current), minted: mint };
      });
    } catch (err) {
      if (isUniqueViolation(err)) return { kind: 'name_taken' };
      throw err;
    }
  }

  async get(scope: LookupScope, testId: string): Promise<TestRecord | null> {
    const where = scopeWhere(scope);
    const test = this.store.db.prepare(`SELECT * FROM tests WHERE id = ? AND ${where.sql}`).get(testId, ...where.params) as TestRow | undefined;
    return test ? this.withVersions([test])[0]! : null;
  }

  async getMany(projectId: string, ids: readonly string[]): Promise<TestRecord[]> {
    if (ids.length === 0) return [];
    const rows = this.store.db
      .prepare(`SELECT * FROM tests WHERE project_id = ? AND id IN (${ids.map(() => '?').join(', ')})`)
      .all(projectId, ...ids) as TestRow[];
    const byId = new Map(this.withVersions(rows).map((t) => [t.id, t]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async list(projectId: string, page: PageRequest): Promise<Page<TestRecord>> {
    const rows = keysetPage<TestRow, TestRow>(
      this.store.db,
      { table: 'tests', where: 'project_id = ?', params: [projectId], afterId: page.afterId, limit: page.limit },
      (r) => r,
    );
    return { items: this.withVersions(rows.items), next: rows.next };
  }

  async getVersion(scope: LookupScope, versionId: string): Promise<TestVersionRecord | null> {
    const where = scopeWhere(scope, 'v');
    const row = this.store.db
      .prepare(`SELECT v.*, t.name AS test_name, t.current_version_id FROM test_versions v JOIN tests t ON t.id = v.test_id WHERE v.id = ? AND ${where.sql}`)
      .get(versionId, ...where.params) as VersionWithTestRow | undefined;
    return row ? toVersionRecord(row) : null;
  }

  async listVersions(scope: LookupScope, testId: string, page: PageRequest): Promise<Page<TestVersionRecord> | null> {
    const where = scopeWhere(scope);
    const test = this.store.db.prepare(`SELECT * FROM tests WHERE id = ? AND ${where.sql}`).get(testId, ...where.params) as TestRow | undefined;
    if (!test) return null;
    return keysetPage<VersionRow, TestVersionRecord>(
      this.store.db,
      { table: 'test_versions', where: 'test_id = ?', params: [testId], afterId: page.afterId, limit: page.limit },
      (v) => toVersionRecord({ ...v, test_name: test.name, current_version_id: test.current_version_id }),
    );
  }

  /** Joins each test with its current version in one query (a page never costs one query per test). */
  private withVersions(tests: TestRow[]): TestRecord[] {
    if (tests.length === 0) return [];
    const versions = this.store.db
      .prepare(`SELECT * FROM test_versions WHERE id IN (${tests.map(() => '?').join(', ')})`)
      .all(...tests.map((t) => t.current_version_id)) as VersionRow[];
    const byId = new Map(versions.map((v) => [v.id, v]));
    return tests.map((t) => toTestRecord(t, contentOf(byId.get(t.current_version_id)!)));
  }
}
