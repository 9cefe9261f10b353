import { type DuckDBAppender, type DuckDBConnection, DuckDBTimestampValue } from '@duckdb/node-api';
import type { ScopeRecord, SpanRecord } from '../otlp/records.js';
import { SPAN_COLUMNS } from '../storage/duckdb/schema/spans.js';

/** The spans of one accepted request, in the key's project. */
export interface SpanBatch {
  organizationId: string;
  projectId: string;
  records: SpanRecord[];
  /** The resources and scopes the records reference by `scopeId`. */
  scopes: ScopeRecord[];
}

/** A pending-derivation marker to clear once its conversation is derived: rows up to `version` (newer ones stay). */
export interface PendingTrace {
  projectId: string;
  traceId: string;
  version: bigint;
}

interface NewScope {
  organizationId: string;
  projectId: string;
  scope: ScopeRecord;
}

/** What one commit will write, already in the committer's staging tables. */
export interface Staged {
  spans: number;
  clears: number;
  newScopes: NewScope[];
}

const scopeKey = (projectId: string, scopeId: bigint) => `${projectId}/${scopeId}`;
const isConflict = (err: unknown) => /constraint|duplicate key|conflict/i.test((err as Error).message);

/**
 * One writer connection and its private, unindexed staging tables. `stage`
 * appends a group there (cheap, and the only part on the event loop);
 * `commit` moves it into the span store in one transaction run by DuckDB's
 * own threads. The span writer keeps two of these, so one group can stage
 * while the previous one commits.
 */
export class SpanCommitter {
  private constructor(private readonly connection: DuckDBConnection) {}

  static async open(connection: DuckDBConnection): Promise<SpanCommitter> {
    await connection.run(`CREATE TEMP TABLE span_staging (${SPAN_COLUMNS.replace(/ NOT NULL/g, '')})`);
    await connection.run('CREATE TEMP TABLE pending_staging (organization_id VARCHAR, project_id VARCHAR, trace_id UHUGEINT)');
    await connection.run('CREATE TEMP TABLE clear_staging (project_id VARCHAR, trace_id UHUGEINT, seq BIGINT)');
    return new SpanCommitter(connection);
  }

  /**
   * Appends every span of the batches once (a span repeated within the group
   * is written once), a derivation marker per trace, and the markers to clear.
   * Returns the scopes not in `storedScopes`.
   */
  async stage(batches: readonly SpanBatch[], clears: readonly PendingTrace[], storedScopes: ReadonlySet<string>): Promise<Staged> {
    const seen = new Set<string>();
    const traces = new Map<string, { organizationId: string; projectId: string; traceKey: bigint }>();
    const scopes = new Map<string, NewScope>();
    const receivedAt = new DuckDBTimestampValue(BigInt(Date.now()) * 1000n);
    let spans = 0;
    await this.append('span_staging', (a) => {
      for (const batch of batches) {
        for (const scope of batch.scopes) {
          const key = scopeKey(batch.projectId, scope.scopeId);
          if (!storedScopes.has(key)) scopes.set(key, { organizationId: batch.organizationId, projectId: batch.projectId, scope });
        }
        for (const r of batch.records) {
          const key = `${batch.projectId}/${r.traceId}/${r.spanId}`;
          if (seen.has(key)) continue;
          seen.add(key);
          appendSpan(a, batch.projectId, r, receivedAt);
          spans++;
          traces.set(`${batch.projectId}/${r.traceId}`, { organizationId: batch.organizationId, projectId: batch.projectId, traceKey: r.traceKey });
        }
      }
    });
    await this.append('pending_staging', (a) => {
      for (const t of traces.values()) {
        a.appendVarchar(t.organizationId);
        a.appendVarchar(t.projectId);
        a.appendUHugeInt(t.traceKey);
        a.endRow();
      }
    });
    await this.append('clear_staging', (a) => {
      for (const p of clears) {
        a.appendVarchar(p.projectId);
        a.appendUHugeInt(BigInt(`0x${p.traceId}`));
        a.appendBigInt(p.version);
        a.endRow();
      }
    });
    return { spans, clears: clears.length, newScopes: [...scopes.values()] };
  }

  /**
   * Commits what is staged: new scopes, spans, markers, cleared markers.
   * A key clash (a re-sent span, or a scope another commit is writing) fails
   * the fast path; the commit then starts over with INSERT OR IGNORE. The
   * staging tables are emptied either way.
   */
  async commit(staged: Staged): Promise<string[]> {
    try {
      try {
        await this.transaction(staged, true);
      } catch (err) {
        if (!isConflict(err)) throw err;
        await this.transaction(staged, false);
      }
      return staged.newScopes.map((s) => scopeKey(s.projectId, s.scope.scopeId));
    } finally {
      await this.empty();
    }
  }

  /** Empties the staging tables (after a commit, or after a failed stage). */
  async empty(): Promise<void> {
    for (const table of ['span_staging', 'pending_staging', 'clear_staging']) await this.connection.run(`DELETE FROM ${table}`);
  }

  close(): void {
    this.connection.closeSync();
  }

  private async transaction(staged: Staged, fast: boolean): Promise<void> {
    const c = this.connection;
    await c.run('BEGIN TRANSACTION');
    try {
      for (const { organizationId, projectId, scope } of staged.newScopes) {
        await c.run('INSERT INTO span_scopes VALUES ($1, $2, $3::UBIGINT, $4, $5, $6, $7, now()) ON CONFLICT DO NOTHING', [
          organizationId, projectId, scope.scopeId.toString(), scope.resourceAttributes, scope.scopeName, scope.scopeVersion, scope.scopeAttributes,
        ]);
      }
      if (staged.spans) {
        await c.run(fast ? 'INSERT INTO spans SELECT * FROM span_staging' : 'INSERT OR IGNORE INTO spans SELECT * FROM span_staging');
        await c.run(`INSERT INTO trace_pending SELECT organization_id, project_id, trace_id, nextval('trace_pending_seq'), now() FROM pending_staging`);
      }
      if (staged.clears) {
        await c.run(`DELETE FROM trace_pending USING clear_staging c
          WHERE trace_pending.project_id = c.project_id AND trace_pending.trace_id = c.trace_id AND trace_pending.seq <= c.seq`);
      }
      await c.run('COMMIT');
    } catch (err) {
      await c.run('ROLLBACK').catch(() => undefined);
      throw err;
    }
  }

  private async append(table: string, fill: (appender: DuckDBAppender) => void): Promise<void> {
    const appender = await this.connection.createAppender(table, 'main', 'temp');
    try {
      fill(appender);
      appender.flushSync();
    } finally {
      try {
        appender.closeSync();
      } catch {
        /* the flush error is the one that matters */
      }
    }
  }
}

function appendSpan(a: DuckDBAppender, projectId: string, r: SpanRecord, receivedAt: DuckDBTimestampValue): void {
  a.appendVarchar(projectId);
  a.appendUHugeInt(r.traceKey);
  a.appendUBigInt(r.spanKey);
  if (r.parentKey === null) a.appendNull();
  else a.appendUBigInt(r.parentKey);
  a.appendVarchar(r.name);
  a.appendUTinyInt(r.kind);
  a.appendUBigInt(r.startNs);
  a.appendUBigInt(r.endNs);
  a.appendUTinyInt(r.statusCode);
  if (r.sessionId === null) a.appendNull();
  else a.appendVarchar(r.sessionId);
  a.appendUBigInt(r.scopeId);
  a.appendVarchar(r.attributes);
  if (r.detail === null) a.appendNull();
  else a.appendVarchar(r.detail);
  a.appendTimestamp(receivedAt);
  a.endRow();
}
