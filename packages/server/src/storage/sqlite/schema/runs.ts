import type { SqliteMigration } from '../migrations.js';

/**
 * Runs, their calls (the execution queue) and their events.
 * - A run and all its calls and its `run.queued` event are inserted in one
 *   transaction; `runs_idempotency` makes a repeated `Idempotency-Key` find
 *   the run it made.
 * - `run_calls` is the queue: a call is claimed by flipping `queued` to
 *   `running` inside an immediate transaction; every later write of a call is
 *   guarded by `status = 'running'`, so a canceled or recovered call cannot be
 *   written again. The behavior and tool counters make summaries an aggregate.
 * - `run_events.seq` counts 1, 2, 3... per run from `runs.last_event_seq`,
 *   bumped in the transaction that appends the event.
 */
export const runsSchema: SqliteMigration = {
  id: '0005_runs',
  sql: `
CREATE TABLE runs (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id),
  project_id TEXT NOT NULL REFERENCES projects(id),
  agent_id TEXT NOT NULL REFERENCES agents(id),
  connection_id TEXT NOT NULL REFERENCES agent_connections(id),
  test_versions TEXT NOT NULL,
  repeat INTEGER NOT NULL,
  concurrency INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'passed', 'failed', 'error', 'canceled')),
  idempotency_key TEXT,
  request_hash TEXT NOT NULL,
  created_by_user_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  started_at TEXT,
  finished_at TEXT,
  last_event_seq INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX runs_project ON runs(project_id, seq);
CREATE INDEX runs_project_status ON runs(project_id, status, seq);
CREATE INDEX runs_project_agent ON runs(project_id, agent_id, seq);
CREATE UNIQUE INDEX runs_idempotency ON runs(project_id, idempotency_key) WHERE idempotency_key IS NOT NULL;

CREATE TABLE run_calls (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  run_id TEXT NOT NULL REFERENCES runs(id),
  organization_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  test_id TEXT NOT NULL,
  test_version_id TEXT NOT NULL REFERENCES test_versions(id),
  persona_id TEXT NOT NULL,
  persona_name TEXT NOT NULL,
  persona_description TEXT,
  repetition INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'passed', 'failed', 'error', 'canceled')),
  end_reason TEXT,
  problem_code TEXT,
  problem_message TEXT,
  started_at TEXT,
  finished_at TEXT,
  transcript TEXT NOT NULL DEFAULT '[]',
  tool_calls TEXT NOT NULL DEFAULT '[]',
  behaviors TEXT NOT NULL DEFAULT '[]',
  judge TEXT,
  latency_p50_ms INTEGER,
  latency_p95_ms INTEGER,
  behaviors_passed INTEGER NOT NULL DEFAULT 0,
  behaviors_failed INTEGER NOT NULL DEFAULT 0,
  behaviors_error INTEGER NOT NULL DEFAULT 0,
  unmatched_tools INTEGER NOT NULL DEFAULT 0,
  UNIQUE (run_id, position)
);
CREATE INDEX run_calls_queue ON run_calls(status, organization_id, seq);
CREATE INDEX run_calls_run_status ON run_calls(run_id, status);

CREATE TABLE run_events (
  run_id TEXT NOT NULL REFERENCES runs(id),
  seq INTEGER NOT NULL,
  type TEXT NOT NULL,
  at TEXT NOT NULL,
  data TEXT NOT NULL,
  PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
`,
};
