import type Database from 'better-sqlite3';
import { agentsSchema } from './schema/agents.js';
import { coreSchema } from './schema/core.js';
import { runsSchema } from './schema/runs.js';
import { testAuthoringSchema } from './schema/test-authoring.js';
import { monitoringSchema } from './schema/monitoring.js';

/** One versioned, forward-only migration. Ids sort in the order they must apply. */
export interface SqliteMigration {
  id: string;
  sql: string;
}

/** Every relational migration, in order. Capabilities append theirs; never edit an applied one. */
export const sqliteMigrations: readonly SqliteMigration[] = [coreSchema, testAuthoringSchema, agentsSchema, monitoringSchema, runsSchema];

/** Applies the migrations not yet recorded in `schema_migrations`, each in its own immediate transaction. */
export function migrateSqlite(db: Database.Database): string[] {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
  const applied: string[] = [];
  for (const migration of sqliteMigrations) {
    db.transaction(() => {
      if (db.prepare('SELECT 1 FROM schema_migrations WHERE id = ?').get(migration.id)) return;
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (id, applied_at) VALUES (?, ?)').run(migration.id, new Date().toISOString());
      applied.push(migration.id);
    }).immediate();
  }
  return applied;
}
