import type { DuckDBConnection } from '@duckdb/node-api';
import { conversationsSchema } from './schema/conversations.js';
import { spansSchema } from './schema/spans.js';

/** One versioned, forward-only analytics migration. */
export interface DuckdbMigration {
  id: string;
  statements: readonly string[];
}

/** Every analytics migration, in order. Capabilities append theirs; never edit an applied one. */
export const duckdbMigrations: readonly DuckdbMigration[] = [conversationsSchema, spansSchema];

/** Applies pending migrations, each in one transaction with its bookkeeping row. */
export async function migrateDuckdb(connection: DuckDBConnection): Promise<string[]> {
  await connection.run('CREATE TABLE IF NOT EXISTS analytics_migrations (id VARCHAR PRIMARY KEY, applied_at TIMESTAMP NOT NULL)');
  const applied: string[] = [];
  for (const migration of duckdbMigrations) {
    const found = await connection.runAndReadAll('SELECT 1 FROM analytics_migrations WHERE id = $1', [migration.id]);
    if (found.currentRowCount > 0) continue;
    await connection.run('BEGIN TRANSACTION');
    try {
      for (const statement of migration.statements) await connection.run(statement);
      await connection.run('INSERT INTO analytics_migrations VALUES ($1, now())', [migration.id]);
      await connection.run('COMMIT');
    } catch (err) {
      await connection.run('ROLLBACK');
      throw err;
    }
    applied.push(migration.id);
  }
  return applied;
}
