import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import Database from 'better-sqlite3';
import { SERVER_BIN } from '../../helpers/paths.js';
import type { TestServer } from '../../helpers/server.js';
import type { Ledger } from './ledger.js';

/** What the stores hold after a kill, checked with the server stopped. */
export interface OfflineResult {
  integrity: string;
  /** The DuckDB file opened (else why not). */
  duckdb: 'opened' | string;
  /** Acknowledged writes that are not there (must stay empty). */
  lost: string[];
  /** Rows stored twice, rows no client sent, versions changed after their acknowledgement (must stay empty). */
  broken: string[];
  spanRows: number;
  conversationRows: number;
}

const hex = (key: bigint, digits: number) => key.toString(16).padStart(digits, '0');

/**
 * Every offline check after a kill, with the server stopped: the relational
 * store, then the analytics store (whose every span must be one the clients
 * sent, answered or not).
 */
export async function checkOffline(dataDir: string, ledger: Ledger): Promise<OfflineResult> {
  const out: OfflineResult = { integrity: '', duckdb: '', lost: [], broken: [], spanRows: 0, conversationRows: 0 };
  checkRelational(dataDir, ledger, out);
  const sent = new Set<string>();
  for (const [traceId, ids] of ledger.spans) for (const id of ids) sent.add(`${traceId}/${id}`);
  for (const b of ledger.unanswered) for (const id of b.spanIds) sent.add(`${b.traceId}/${id}`);
  try {
    await checkAnalytics(dataDir, ledger, sent, out);
    out.duckdb = 'opened';
  } catch (err) {
    out.duckdb = (err as Error).message;
  }
  return out;
}

/**
 * Opens `svc.sqlite` read-only: `PRAGMA integrity_check`, then every
 * acknowledged key and test version is there, versions are frozen (the
 * scenario the client was told) and numbered 1..N without a gap.
 */
function checkRelational(dataDir: string, ledger: Ledger, out: OfflineResult): void {
  const db = new Database(path.join(dataDir, 'svc.sqlite'), { readonly: true, fileMustExist: true });
  try {
    out.integrity = String(db.pragma('integrity_check', { simple: true }));
    const keys = new Set((db.prepare('SELECT id FROM api_keys').all() as Array<{ id: string }>).map((r) => r.id));
    for (const id of ledger.keys.keys()) if (!keys.has(id)) out.lost.push(`key ${id}`);
    const rows = db.prepare('SELECT id, test_id, version, scenario FROM test_versions').all() as Array<{ id: string; test_id: string; version: number; scenario: string }>;
    const versions = new Map(rows.map((r) => [r.id, r]));
    for (const [id, acked] of ledger.versions) {
      const row = versions.get(id);
      if (!row) out.lost.push(`test version ${id}`);
      else if (row.test_id !== acked.testId || row.version !== acked.version || row.scenario !== acked.scenario) out.broken.push(`test version ${id} changed`);
    }
    const gaps = db
      .prepare(
        `SELECT t.id FROM tests t JOIN test_versions v ON v.test_id = t.id GROUP BY t.id
         HAVING count(*) <> max(v.version) OR max(v.version) <> max(t.current_version)
           OR max(t.current_version_id) <> (SELECT id FROM test_versions WHERE test_id = t.id ORDER BY version DESC LIMIT 1)`,
      )
      .all() as Array<{ id: string }>;
    for (const g of gaps) out.broken.push(`test ${g.id}: versions are not 1..N with the newest current`);
  } finally {
    db.close();
  }
}

/**
 * Opens `analytics.duckdb` read-only in this process (it replays the WAL in
 * memory and writes nothing): every acknowledged span and every listed
 * platform_a conversation is there, nothing is stored twice, and every
 * stored span is one the clients sent.
 */
async function checkAnalytics(dataDir: string, ledger: Ledger, sent: ReadonlySet<string>, out: OfflineResult): Promise<void> {
  const instance = await DuckDBInstance.create(path.join(dataDir, 'analytics.duckdb'), { access_mode: 'READ_ONLY' });
  const c = await instance.connect();
  const rows = async (sql: string) => (await c.runAndReadAll(sql)).getRowObjects() as Array<Record<string, unknown>>;
  try {
    const stored = new Set<string>();
    // Read as integers and formatted here: DuckDB's cast of a UHUGEINT to text is slow.
    for (const r of await rows('SELECT trace_id AS t, span_id AS s FROM spans')) stored.add(`${hex(r.t as bigint, 32)}/${hex(r.s as bigint, 16)}`);
    const [spanCount] = await rows('SELECT count(*)::INTEGER AS n, count(DISTINCT (project_id, trace_id, span_id))::INTEGER AS d FROM spans');
    out.spanRows = Number(spanCount!.n);
    if (Number(spanCount!.n) !== Number(spanCount!.d) || stored.size !== out.spanRows) out.broken.push(`spans: ${spanCount!.n} rows for ${spanCount!.d} distinct spans`);
    for (const [traceId, spanIds] of ledger.spans) for (const spanId of spanIds) if (!stored.has(`${traceId}/${spanId}`)) out.lost.push(`span ${traceId}/${spanId}`);
    for (const key of stored) if (!sent.has(key)) out.broken.push(`span ${key} was never sent`);

    const [convCount] = await rows('SELECT count(*)::INTEGER AS n, count(DISTINCT (project_id, source, external_id))::INTEGER AS d FROM conversations');
    out.conversationRows = Number(convCount!.n);
    if (Number(convCount!.n) !== Number(convCount!.d)) out.broken.push(`conversations: ${convCount!.n} rows for ${convCount!.d} distinct`);
    const imported = new Set((await rows("SELECT external_id FROM conversations WHERE source = 'platform_a'")).map((r) => String(r.external_id)));
    for (const id of ledger.conversations) if (!imported.has(id)) out.lost.push(`conversation ${id}`);
  } finally {
    c.closeSync();
    instance.closeSync();
  }
}

/** Size, modification time and content hash of every file in the data directory. */
function snapshotDir(dataDir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dataDir).sort()) {
    const file = path.join(dataDir, name);
    const st = statSync(file);
    if (!st.isFile()) continue;
    files[name] = `${st.size}:${st.mtimeMs}:${createHash('sha256').update(readFileSync(file)).digest('hex')}`;
  }
  return files;
}

/** The sizes of the store files (the WALs grow between checkpoints), for the progress lines. */
export function storeSizes(dataDir: string): Record<string, number> {
  const size = (f: string) => (existsSync(path.join(dataDir, f)) ? statSync(path.join(dataDir, f)).size : 0);
  return { sqlite_wal: size('svc.sqlite-wal'), duckdb: size('analytics.duckdb'), duckdb_wal: size('analytics.duckdb.wal') };
}

/**
 * Starts a second server on the data directory of the running one and
 * resolves to what went wrong, or null when it exited non-zero naming the
 * lock and every file of the directory kept its size, time and bytes. The
 * running server is frozen (SIGSTOP: it keeps its locks) meanwhile, so
 * nothing else can change the files.
 */
export async function secondServerRefused(server: TestServer): Promise<string | null> {
  server.process.kill('SIGSTOP');
  try {
    await allThreadsStopped(server.process.pid!);
    const before = snapshotDir(server.dataDir);
    const second = await secondServer(server.dataDir);
    const afterwards = snapshotDir(server.dataDir);
    if (second.code === 0 || second.code === null) return `a second server on the data directory exited with ${second.code}`;
    if (!second.output.includes('already using the data directory')) return `the second server failed for another reason: ${second.output}`;
    const changed = [...new Set([...Object.keys(before), ...Object.keys(afterwards)])].filter((f) => before[f] !== afterwards[f]);
    return changed.length ? `the second server changed ${changed.join(', ')}` : null;
  } finally {
    server.process.kill('SIGCONT');
  }
}

/**
 * Resolves once every thread of the process is stopped: a signal is delivered
 * asynchronously, and a DuckDB or decoder thread still running a moment after
 * `kill` could write a file between the two snapshots.
 */
async function allThreadsStopped(pid: number): Promise<void> {
  const state = (tid: string) => {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    } catch {
      return 'T'; // the thread is gone
    }
  };
  for (let i = 0; i < 500; i++) {
    if (readdirSync(`/proc/${pid}/task`).every((tid) => state(tid) === 'T' || state(tid) === 't')) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`the server (pid ${pid}) did not stop within 5 s of SIGSTOP`);
}

/** Starts a second `svc-server` on the data directory and resolves to its exit code and output (it must not get far). */
function secondServer(dataDir: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SERVER_BIN, 'start', '--port', '0', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
    // A second server that did start would never exit on its own: give up after a bound and kill it.
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}
