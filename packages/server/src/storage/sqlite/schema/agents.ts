import type { SqliteMigration } from '../migrations.js';

/**
 * Agents, their connections and the organization's speech-provider keys.
 * Names are unique among *active* rows only (partial indexes), so archiving
 * frees a name and restoring into a taken one is a conflict. Secrets live only
 * in the `*_sealed` columns (AES-256-GCM, see shared/sealing.ts).
 */
export const agentsSchema: SqliteMigration = {
  id: '0004_agents_connections_provider_keys',
  sql: `
CREATE TABLE agents (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id),
  project_id TEXT NOT NULL REFERENCES projects(id),
  name TEXT NOT NULL,
  agent_platform TEXT NOT NULL,
  platform_agent_id TEXT NOT NULL DEFAULT '',
  platform_a_modality TEXT NOT NULL,
  monitoring_api_key_sealed TEXT,
  monitoring_api_key_hint TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  archived_at TEXT
);
CREATE INDEX agents_project ON agents(project_id, seq);
CREATE UNIQUE INDEX agents_active_name ON agents(project_id, name) WHERE archived_at IS NULL;
CREATE TABLE agent_connections (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id),
  project_id TEXT NOT NULL REFERENCES projects(id),
  agent_id TEXT NOT NULL REFERENCES agents(id),
  name TEXT NOT NULL,
  connection_type TEXT NOT NULL,
  access_variant TEXT NOT NULL,
  modality TEXT NOT NULL,
  product_label TEXT NOT NULL,
  topology TEXT NOT NULL,
  environment TEXT NOT NULL,
  config TEXT NOT NULL,
  credentials_sealed TEXT,
  credentials_hint TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  archived_at TEXT
);
CREATE INDEX agent_connections_agent ON agent_connections(agent_id, seq);
CREATE UNIQUE INDEX agent_connections_active_name ON agent_connections(agent_id, name) WHERE archived_at IS NULL;
CREATE TABLE provider_keys (
  organization_id TEXT NOT NULL REFERENCES organizations(id),
  provider TEXT NOT NULL,
  api_key_sealed TEXT NOT NULL,
  api_key_hint TEXT NOT NULL,
  updated_by_user_id TEXT NOT NULL REFERENCES users(id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (organization_id, provider)
);
`,
};
