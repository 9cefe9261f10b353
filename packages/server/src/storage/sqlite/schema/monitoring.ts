import type { SqliteMigration } from '../migrations.js';

/**
 * Monitoring setups and the platform_a importer's durable state.
 * - `monitoring_agents` holds each selected agent's watermark and the
 *   unfinished listing (`pass_*`), so a restart resumes where it stopped.
 * - `monitoring_calls` is every conversation the importer has listed and
 *   what became of it; a call is fetched only while `queued` or `pending`.
 * - `monitoring_failures` are exact calls that could not be imported; a
 *   replay claims one with a lease that expires.
 * - `monitoring_span_receipts` is when platform_b spans last arrived per project.
 */
export const monitoringSchema: SqliteMigration = {
  id: '0002_monitoring',
  sql: `
CREATE TABLE monitoring_setups (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id),
  project_id TEXT NOT NULL REFERENCES projects(id),
  platform TEXT NOT NULL CHECK (platform IN ('platform_a', 'platform_b_agents')),
  sealed_api_key TEXT,
  api_key_hint TEXT,
  health_state TEXT NOT NULL CHECK (health_state IN ('healthy', 'invalid_credential', 'rate_limited', 'provider_unavailable')),
  health_message TEXT NOT NULL,
  health_checked_at TEXT,
  not_before TEXT,
  last_received_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (project_id, platform)
);
CREATE TABLE monitoring_agents (
  setup_id TEXT NOT NULL REFERENCES monitoring_setups(id) ON DELETE CASCADE,
  platform_agent_id TEXT NOT NULL,
  name TEXT NOT NULL,
  position INTEGER NOT NULL,
  backfill_done INTEGER NOT NULL DEFAULT 0,
  watermark_unix INTEGER,
  pass_since_unix INTEGER,
  pass_cursor TEXT,
  pass_high_unix INTEGER,
  scanned INTEGER NOT NULL DEFAULT 0,
  total INTEGER NOT NULL DEFAULT 0,
  last_success_at TEXT,
  last_conversation_at TEXT,
  last_received_at TEXT,
  created_at TEXT NOT NULL,
  PRIMARY KEY (setup_id, platform_agent_id)
);
CREATE TABLE monitoring_calls (
  setup_id TEXT NOT NULL,
  platform_agent_id TEXT NOT NULL,
  conversation_id TEXT NOT NULL,
  start_time_unix INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('queued', 'pending', 'imported', 'skipped', 'failed')),
  fetch_errors INTEGER NOT NULL DEFAULT 0,
  first_seen_at TEXT NOT NULL,
  PRIMARY KEY (setup_id, conversation_id),
  FOREIGN KEY (setup_id, platform_agent_id) REFERENCES monitoring_agents(setup_id, platform_agent_id) ON DELETE CASCADE
);
CREATE INDEX monitoring_calls_work ON monitoring_calls(setup_id, platform_agent_id, state, start_time_unix);
CREATE TABLE monitoring_failures (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL,
  project_id TEXT NOT NULL,
  setup_id TEXT NOT NULL,
  platform_agent_id TEXT NOT NULL,
  conversation_id TEXT NOT NULL,
  reason TEXT NOT NULL,
  attempts INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('open', 'resolved')),
  first_failed_at TEXT NOT NULL,
  last_failed_at TEXT NOT NULL,
  next_retry_at TEXT,
  lease_owner TEXT,
  lease_expires_at TEXT,
  resolved_at TEXT,
  resolved_write TEXT,
  UNIQUE (setup_id, conversation_id),
  FOREIGN KEY (setup_id, platform_agent_id) REFERENCES monitoring_agents(setup_id, platform_agent_id) ON DELETE CASCADE
);
CREATE INDEX monitoring_failures_open ON monitoring_failures(setup_id, status, next_retry_at);
CREATE TABLE monitoring_span_receipts (
  project_id TEXT PRIMARY KEY REFERENCES projects(id),
  last_received_at TEXT NOT NULL
);
`,
};
