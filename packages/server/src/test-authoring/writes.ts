import type { SqliteDb } from '../storage/sqlite/connection.js';
import { type TestContent, contentHash } from './content.js';

/** A test about to be written with its first version. */
export interface NewTest {
  id: string;
  versionId: string;
  organizationId: string;
  projectId: string;
  name: string;
  content: TestContent;
  at: string;
}

/**
 * The INSERT statements of tests and versions, prepared once. The repository
 * and the seeding path (`seed.ts`) share them, so seeded rows are exactly what
 * the API would have written.
 */
export class TestWrites {
  private readonly insertTestStmt;
  private readonly insertVersionStmt;

  constructor(db: SqliteDb) {
    this.insertTestStmt = db.prepare(
      `INSERT INTO tests (id, organization_id, project_id, name, current_version_id, current_version, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 1, ?, ?)`,
    );
    this.insertVersionStmt = db.prepare(
      `INSERT INTO test_versions (id, test_id, organization_id, project_id, version, scenario, expected_behaviors, personas, persona_ids, mock_tools, content_hash, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  /** Inserts a test and its version 1; call inside a transaction (the foreign keys are deferred to commit). */
  insertTest(t: NewTest): void {
    this.insertTestStmt.run(t.id, t.organizationId, t.projectId, t.name, t.versionId, t.at, t.at);
    this.insertVersion({ id: t.versionId, testId: t.id, organizationId: t.organizationId, projectId: t.projectId, version: 1, content: t.content, at: t.at });
  }

  /** Inserts one frozen version row. */
  insertVersion(v: { id: string; testId: string; organizationId: string; projectId: string; version: number; content: TestContent; at: string }): void {
    const c = v.content;
    this.insertVersionStmt.run(
      v.id,
      v.testId,
      v.organizationId,
      v.projectId,
      v.version,
      c.scenario,
      JSON.stringify(c.expectedBehaviors),
      JSON.stringify(c.personas),
      JSON.stringify(c.personaIds),
      JSON.stringify(c.mockTools),
      contentHash(c),
      v.at,
    );
  }
}
