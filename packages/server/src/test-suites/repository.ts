import { MAX_SUITE_TESTS } from '@svc/contract';
import { AppError } from '../http/errors.js';
import type { LookupScope } from '../http/principal.js';
import type { RelationalStore } from '../storage/sqlite/connection.js';
import { type Page, isUniqueViolation, keysetPage } from '../storage/sqlite/keyset.js';

export interface SuiteRecord {
  id: string;
  organizationId: string;
  projectId: string;
  name: string;
  description: string | null;
  /** Member tests in the order they were added. */
  testIds: string[];
  createdAt: string;
  updatedAt: string;
}

export type SuiteWrite =
  | { kind: 'ok'; suite: SuiteRecord }
  | { kind: 'not_found' }
  | { kind: 'name_taken' }
  | { kind: 'unknown_tests'; ids: string[] }
  | { kind: 'too_many'; limit: number }
  | { kind: 'not_member' };

type MemberInsert = { kind: 'ok'; count: number } | Extract<SuiteWrite, { kind: 'unknown_tests' | 'too_many' }>;

type PageRequest = { afterId?: string | undefined; limit: number };

export interface SuiteRepository {
  create(suite: Omit<SuiteRecord, 'updatedAt'>): Promise<SuiteWrite>;
  get(scope: LookupScope, suiteId: string): Promise<SuiteRecord | null>;
  list(projectId: string, page: PageRequest): Promise<Page<SuiteRecord>>;
  /** Adds tests of the suite's project, all or nothing; members already present stay. */
  addTests(scope: LookupScope, suiteId: string, testIds: readonly string[], at: string): Promise<SuiteWrite>;
  removeTest(scope: LookupScope, suiteId: string, testId: string, at: string): Promise<SuiteWrite>;
  /** Ids of the suite's tests, newest test first (keyset on the test's `seq`); null when the suite is invisible. */
  pageTestIds(scope: LookupScope, suiteId: string, page: PageRequest): Promise<{ suite: SuiteRecord; page: Page<string> } | null>;
}

interface SuiteRow {
  id: string;
  organization_id: string;
  project_id: string;
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

function scopeWhere(scope: LookupScope): { sql: string; params: unknown[] } {
  return scope.projectId
    ? { sql: 'organization_id = ? AND project_id = ?', params: [scope.organizationId, scope.projectId] }
    : { sql: 'organization_id = ?', params: [scope.organizationId] };
}

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/** Test suites and their membership in the relational store. */
export class SqliteSuiteRepository implements SuiteRepository {
  constructor(private readonly store: RelationalStore) {}

  async create(s: Omit<SuiteRecord, 'updatedAt'>): Promise<SuiteWrite> {
    try {
      return this.store.immediate((): SuiteWrite => {
        this.store.db
          .prepare('INSERT INTO test_suites (id, organization_id, project_id, name, description, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
          .run(s.id, s.organizationId, s.projectId, s.name, s.description, s.createdAt, s.createdAt);
        const added = this.insertMembers(s.id, s.projectId, s.testIds, s.createdAt);
        if (added.kind !== 'ok') throw new Rollback(added);
        return { kind: 'ok', suite: this.load(s.id)! };
      });
    } catch (err) {
      if (err instanceof Rollback) return err.outcome;
      if (isUniqueViolation(err)) return { kind: 'name_taken' };
      throw err;
    }
  }

  async get(scope: LookupScope, suiteId: string): Promise<SuiteRecord | null> {
    const where = scopeWhere(scope);
    const row = this.store.db.prepare(`SELECT * FROM test_suites WHERE id = ? AND ${where.sql}`).get(suiteId, ...where.params) as SuiteRow | undefined;
    return row ? this.withMembers([row])[0]! : null;
  }

  async list(projectId: string, page: PageRequest): Promise<Page<SuiteRecord>> {
    const rows = keysetPage<SuiteRow, SuiteRow>(
      this.store.db,
      { table: 'test_suites', where: 'project_id = ?', params: [projectId], afterId: page.afterId, limit: page.limit },
      (r) => r,
    );
    return { items: this.withMembers(rows.items), next: rows.next };
  }

  async addTests(scope: LookupScope, suiteId: string, testIds: readonly string[], at: string): Promise<SuiteWrite> {
    const where = scopeWhere(scope);
    try {
      return this.store.immediate((): SuiteWrite => {
        const row = this.store.db.prepare(`SELECT * FROM test_suites WHERE id = ? AND ${where.sql}`).get(suiteId, ...where.params) as SuiteRow | undefined;
        if (!row) return { kind: 'not_found' };
        const added = this.insertMembers(suiteId, row.project_id, testIds, at);
        if (added.kind !== 'ok') throw new Rollback(added);
        if (added.count > 0) this.store.db.prepare('UPDATE test_suites SET updated_at = ? WHERE id = ?').run(at, suiteId);
        return { kind: 'ok', suite: this.load(suiteId)! };
      });
    } catch (err) {
      if (err instanceof Rollback) return err.outcome;
      throw err;
    }
  }

  async removeTest(scope: LookupScope, suiteId: string, testId: string, at: string): Promise<SuiteWrite> {
    const where = scopeWhere(scope);
    return this.store.immediate((): SuiteWrite => {
      const db = this.store.db;
      const row = db.prepare(`SELECT id FROM test_suites WHERE id = ? AND ${where.sql}`).get(suiteId, ...where.params);
      if (!row) return { kind: 'not_found' };
      const removed = db.prepare('DELETE FROM test_suite_tests WHERE suite_id = ? AND test_id = ?').run(suiteId, testId);
      if (removed.changes === 0) return { kind: 'not_member' };
      db.prepare('UPDATE test_suites SET updated_at = ? WHERE id = ?').run(at, suiteId);
      return { kind: 'ok', suite: this.load(suiteId)! };
    });
  }

  async pageTestIds(scope: LookupScope, suiteId: string, page: PageRequest): Promise<{ suite: SuiteRecord; page: Page<string> } | null> {
    const suite = await this.get(scope, suiteId);
    if (!suite) return null;
    const db = this.store.db;
    let afterSeq = Number.MAX_SAFE_INTEGER;
    if (page.afterId !== undefined) {
      const found = db.prepare('SELECT test_seq FROM test_suite_tests WHERE suite_id = ? AND test_id = ?').get(suiteId, page.afterId) as { test_seq: number } | undefined;
      if (!found) throw new AppError('invalid_request', 'The page token does not name a test of this suite.', { pageToken: page.afterId });
      afterSeq = found.test_seq;
    }
    const rows = db
      .prepare('SELECT test_id FROM test_suite_tests WHERE suite_id = ? AND test_seq < ? ORDER BY test_seq DESC LIMIT ?')
      .all(suiteId, afterSeq, page.limit + 1) as { test_id: string }[];
    const more = rows.length > page.limit;
    const items = (more ? rows.slice(0, page.limit) : rows).map((r) => r.test_id);
    return { suite, page: { items, next: more ? items[items.length - 1]! : null } };
  }

  /** Inserts memberships inside the caller's transaction after checking every id is a test of the project. */
  private insertMembers(suiteId: string, projectId: string, testIds: readonly string[], at: string): MemberInsert {
    const db = this.store.db;
    const unique = [...new Set(testIds)];
    if (unique.length === 0) return { kind: 'ok', count: 0 };
    const tests = db.prepare(`SELECT id, seq FROM tests WHERE project_id = ? AND id IN (${placeholders(unique.length)})`).all(projectId, ...unique) as { id: string; seq: number }[];
    const seqById = new Map(tests.map((t) => [t.id, t.seq]));
    const unknown = unique.filter((id) => !seqById.has(id));
    if (unknown.length > 0) return { kind: 'unknown_tests', ids: unknown };
    const insert = db.prepare('INSERT OR IGNORE INTO test_suite_tests (suite_id, test_id, test_seq, added_at) VALUES (?, ?, ?, ?)');
    let count = 0;
    for (const id of unique) count += insert.run(suiteId, id, seqById.get(id)!, at).changes;
    const { n } = db.prepare('SELECT count(*) AS n FROM test_suite_tests WHERE suite_id = ?').get(suiteId) as { n: number };
    if (n > MAX_SUITE_TESTS) return { kind: 'too_many', limit: MAX_SUITE_TESTS };
    return { kind: 'ok', count };
  }

  private load(suiteId: string): SuiteRecord | null {
    const row = this.store.db.prepare('SELECT * FROM test_suites WHERE id = ?').get(suiteId) as SuiteRow | undefined;
    return row ? this.withMembers([row])[0]! : null;
  }

  /** Attaches every suite's members with one query. */
  private withMembers(rows: SuiteRow[]): SuiteRecord[] {
    if (rows.length === 0) return [];
    const members = this.store.db
      .prepare(`SELECT suite_id, test_id FROM test_suite_tests WHERE suite_id IN (${placeholders(rows.length)}) ORDER BY seq`)
      .all(...rows.map((r) => r.id)) as { suite_id: string; test_id: string }[];
    const bySuite = new Map<string, string[]>();
    for (const m of members) (bySuite.get(m.suite_id) ?? bySuite.set(m.suite_id, []).get(m.suite_id)!).push(m.test_id);
    return rows.map((r) => ({
      id: r.id,
      organizationId: r.organization_id,
      projectId: r.project_id,
      name: r.name,
      description: r.description,
      testIds: bySuite.get(r.id) ?? [],
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    }));
  }
}

/** Aborts the surrounding transaction with a refusal, so nothing of the request is kept. */
class Rollback extends Error {
  constructor(readonly outcome: SuiteWrite) {
    super(outcome.kind);
  }
}
