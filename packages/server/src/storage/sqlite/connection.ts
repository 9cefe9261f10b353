import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { migrateSqlite } from './migrations.js';

export type SqliteDb = Database.Database;

export const SQLITE_FILE = 'svc.sqlite';
const BUSY_TIMEOUT_MS = 5000;

/**
 * The relational store: one better-sqlite3 connection to `<dataDir>/svc.sqlite`
 * (WAL, synchronous=FULL, foreign keys), migrated on open.
 */
export class RelationalStore {
  readonly db: SqliteDb;

  private constructor(db: SqliteDb) {
    this.db = db;
  }

  /** Opens (creating if needed) and migrates the store. */
  static open(dataDir: string): RelationalStore {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const db = new Database(path.join(dataDir, SQLITE_FILE), { timeout: BUSY_TIMEOUT_MS });
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    migrateSqlite(db);
    return new RelationalStore(db);
  }

  /** Runs `fn` in a `BEGIN IMMEDIATE` transaction: the write lock is taken before the first read. */
  immediate<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  /**
   * A real round trip: a read and a write probe with a short lock wait, so a
   * store that cannot take writes (locked, read-only, broken) reports unreachable.
   */
  ping(): boolean {
    const db = this.db;
    try {
      db.pragma('busy_timeout = 250');
      db.prepare('SELECT count(*) AS n FROM schema_migrations').get();
      db.prepare('INSERT INTO health_probe (id, checked_at) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET checked_at = excluded.checked_at').run(new Date().toISOString());
      return true;
    } catch {
      return false;
    } finally {
      try {
        db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      } catch {
        /* the connection is gone; nothing to restore */
      }
    }
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
