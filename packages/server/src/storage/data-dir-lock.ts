import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import path from 'node:path';

export const LOCK_FILE = 'server.lock';

export class DataDirLockedError extends Error {}

/**
 * An exclusive, crash-safe lock on a data directory: an SQLite file held in
 * EXCLUSIVE locking mode inside an open transaction. The operating system
 * drops the lock when the process dies, so a SIGKILLed server leaves nothing stale.
 */
export class DataDirLock {
  private constructor(private readonly db: Database.Database) {}

  /** Takes the lock or throws `DataDirLockedError` at once (no waiting). */
  static acquire(dataDir: string): DataDirLock {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const db = new Database(path.join(dataDir, LOCK_FILE), { timeout: 0 });
    try {
      db.pragma('locking_mode = EXCLUSIVE');
      db.exec('BEGIN EXCLUSIVE');
    } catch (err) {
      db.close();
      if ((err as { code?: string }).code === 'SQLITE_BUSY') {
        throw new DataDirLockedError(`another svc-server is already using the data directory ${dataDir}`);
      }
      throw err;
    }
    return new DataDirLock(db);
  }

  release(): void {
    if (!this.db.open) return;
    try {
      this.db.exec('ROLLBACK');
    } finally {
      this.db.close();
    }
  }
}
