import { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import os from 'node:os';
import path from 'node:path';
import { migrateDuckdb } from './migrations.js';

export const DUCKDB_FILE = 'analytics.duckdb';

let opened = false;

/** DuckDB worker threads unless configured: every core but two (the event loop, span decoding), at least one. */
export function defaultThreads(): number {
  return Math.max(1, os.availableParallelism() - 2);
}

/**
 * The analytics store: the process's single DuckDB instance on
 * `<dataDir>/analytics.duckdb`. Two instances on one file in one process
 * silently lose writes, so opening a second one throws.
 */
export class AnalyticsStore {
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** The health probe's own connection, and the probe in flight (concurrent probes share it). */
  private pinger: Promise<DuckDBConnection> | undefined;
  private pinging: Promise<boolean> | undefined;

  private constructor(
    readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
  ) {}

  /**
   * Opens and migrates the store. DuckDB's own file lock refuses a second
   * process. `threads` is DuckDB's worker count (its default is one per core):
   * the statements svc runs are small, and each wakes every worker, whose
   * spinning then costs more than the parallelism gains; the default leaves
   * one core to the event loop and one to span decoding.
   */
  static async open(dataDir: string, options: { threads?: number } = {}): Promise<AnalyticsStore> {
    if (opened) throw new Error('the analytics store is already open in this process');
    opened = true;
    try {
      const threads = options.threads ?? defaultThreads();
      const instance = await DuckDBInstance.create(path.join(dataDir, DUCKDB_FILE), { threads: String(threads) });
      const connection = await instance.connect();
      const store = new AnalyticsStore(instance, connection);
      await store.exclusive((c) => migrateDuckdb(c));
      return store;
    } catch (err) {
      opened = false;
      throw err;
    }
  }

  /**
   * Runs `fn` with the shared connection, one caller at a time, so a
   * transaction opened inside `fn` is never interleaved with another caller's statements.
   */
  exclusive<T>(fn: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the analytics store is closed'));
    const run = this.queue.then(() => fn(this.connection));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** A separate connection on the same instance, for a writer that batches on its own (e.g. span ingest). */
  connect(): Promise<DuckDBConnection> {
    return this.instance.connect();
  }

  /**
   * A real query against a migrated table, on a connection of its own: on the
   * shared one the probe would wait behind every queued read (a busy store
   * is not a down one, and `/health` must answer while the store is busy).
   */
  ping(): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    this.pinging ??= this.probe().finally(() => (this.pinging = undefined));
    return this.pinging;
  }

  private async probe(): Promise<boolean> {
    try {
      this.pinger ??= this.instance.connect();
      await (await this.pinger).run('SELECT count(*) FROM analytics_migrations');
      return true;
    } catch {
      this.pinger = undefined; // the next probe tries a new connection
      return false;
    }
  }

  /** Waits for queued work, checkpoints and closes. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.queue;
    this.closed = true;
    try {
      await this.connection.run('CHECKPOINT');
    } catch {
      /* the WAL replays on the next open */
    }
    await this.pinging;
    if (this.pinger) (await this.pinger.catch(() => undefined))?.closeSync();
    this.connection.closeSync();
    this.instance.closeSync();
    opened = false;
  }
}
