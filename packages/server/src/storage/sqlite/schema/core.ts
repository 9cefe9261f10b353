import type { SqliteMigration } from '../migrations.js';

/** Tenancy, users, keys and sessions. `seq` orders lists (newest first) and backs keyset pagination. */
export const coreSchema: SqliteMigration = {
  id: '0001_core',
  sql: `
CREATE TABLE organizations (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE users (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id),
  email TEXT NOT NULL UNIQUE,
  role TEXT NOT NULL CHECK (role IN ('admin', 'member', 'viewer')),
  created_at TEXT NOT NULL
);
CREATE INDEX users_org ON users(organization_id, seq);
CREATE TABLE projects (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (organization_id, name)
);
CREATE TABLE api_keys (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id),
  project_id TEXT REFERENCES projects(id),
  name TEXT,
  secret_hash BLOB NOT NULL UNIQUE,
  looks_like TEXT NOT NULL,
  created_by_user_id TEXT NOT NULL REFERENCES users(id),
  created_at TEXT NOT NULL,
  last_used_at TEXT,
  revoked_at TEXT
);
CREATE INDEX api_keys_org ON api_keys(organization_id, seq);
CREATE TABLE sessions (
  token_hash BLOB PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id),
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
CREATE TABLE health_probe (id INTEGER PRIMARY KEY, checked_at TEXT NOT NULL);
`,
};
