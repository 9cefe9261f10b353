import type { SqliteMigration } from '../migrations.js';

/**
 * Personas, tests with immutable versions, and test suites.
 *
 * - A project has exactly one default persona (partial unique index); it is
 *   created, inside the same transaction, by the first write that needs it.
 * - `test_versions` rows are frozen by triggers: no UPDATE, no DELETE.
 * - `persona_ids` keeps the persona ids a version resolved when it was
 *   minted (the wire `personas` keeps what the client wrote), so a run knows
 *   exactly which personas a pinned version means.
 * - `personas.revision` lets an edit whose voice was validated outside the
 *   transaction notice a concurrent edit and start over.
 * - `test_suite_tests.test_seq` copies the test's `seq` so a suite's tests
 *   page newest-first on one index, like `GET /api/tests`.
 */
export const testAuthoringSchema: SqliteMigration = {
  id: '0002_test_authoring',
  sql: `
CREATE TABLE personas (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id),
  project_id TEXT NOT NULL REFERENCES projects(id),
  name TEXT NOT NULL,
  description TEXT,
  is_default INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),
  tts_provider TEXT,
  tts_model TEXT,
  stt_provider TEXT,
  stt_model TEXT,
  voice_id TEXT,
  language TEXT,
  accent TEXT,
  emotion TEXT,
  speed REAL,
  speech_volume REAL,
  revision INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (project_id, name)
);
CREATE INDEX personas_project ON personas(project_id, seq);
CREATE UNIQUE INDEX personas_one_default ON personas(project_id) WHERE is_default = 1;

CREATE TABLE tests (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id),
  project_id TEXT NOT NULL REFERENCES projects(id),
  name TEXT NOT NULL,
  current_version_id TEXT NOT NULL REFERENCES test_versions(id) DEFERRABLE INITIALLY DEFERRED,
  current_version INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (project_id, name)
);
CREATE INDEX tests_project ON tests(project_id, seq);
-- Also what SQLite searches when a version row arrives, to settle the deferred foreign key.
CREATE UNIQUE INDEX tests_current_version ON tests(current_version_id);

CREATE TABLE test_versions (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  test_id TEXT NOT NULL REFERENCES tests(id) DEFERRABLE INITIALLY DEFERRED,
  organization_id TEXT NOT NULL REFERENCES organizations(id),
  project_id TEXT NOT NULL REFERENCES projects(id),
  version INTEGER NOT NULL CHECK (version >= 1),
  scenario TEXT NOT NULL,
  expected_behaviors TEXT NOT NULL,
  personas TEXT NOT NULL,
  persona_ids TEXT NOT NULL,
  mock_tools TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (test_id, version)
);
CREATE INDEX test_versions_test ON test_versions(test_id, seq);
CREATE TRIGGER test_versions_frozen BEFORE UPDATE ON test_versions
BEGIN SELECT RAISE(ABORT, 'test versions are immutable'); END;
CREATE TRIGGER test_versions_kept BEFORE DELETE ON test_versions
BEGIN SELECT RAISE(ABORT, 'test versions are never deleted'); END;

CREATE TABLE test_suites (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id),
  project_id TEXT NOT NULL REFERENCES projects(id),
  name TEXT NOT NULL,
  description TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (project_id, name)
);
CREATE INDEX test_suites_project ON test_suites(project_id, seq);

CREATE TABLE test_suite_tests (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  suite_id TEXT NOT NULL REFERENCES test_suites(id),
  test_id TEXT NOT NULL REFERENCES tests(id),
  test_seq INTEGER NOT NULL,
  added_at TEXT NOT NULL,
  UNIQUE (suite_id, test_id)
);
CREATE INDEX test_suite_tests_page ON test_suite_tests(suite_id, test_seq);
`,
};
