import type { DuckDBConnection } from '@duckdb/node-api';
import { type SpanColumns, columnOffsets } from '../otlp/columns.js';
import { type CommitRows, publish, registerCommitSources, release } from './commit-sources.js';

/** The spans of one accepted request, in the key's project. */
export interface SpanBatch {
  organizationId: string;
  projectId: string;
  spans: SpanColumns;
}

/** A pending-derivation marker to clear once its conversation is derived: rows up to `version` (newer ones stay). */
export interface PendingTrace {
  projectId: string;
  traceId: string;
  version: bigint;
}

const scopeKey = (projectId: string, scopeId: bigint) => `${projectId}/${scopeId}`;
const isConflict = (err: unknown) => /constraint|duplicate key|conflict/i.test((err as Error).message);

/** A trace's 128-bit key from its row in the columns (UHUGEINT layout: lower then upper 64 bits, little-endian). */
function traceKeyAt(spans: SpanColumns, row: number): bigint {
  const view = new DataView(spans.fixed, columnOffsets(spans.capacity).trace + 16 * row, 16);
  return (view.getBigUint64(8, true) << 64n) | view.getBigUint64(0, true);
}

/**
 * What one group commit writes: its spans, a derivation marker per trace
 * (once per project and trace), the markers to clear, and the scopes not in
 * `storedScopes`. Spans repeated within the group stay repeated: the
 * commit's key check deals with them (see `SpanCommitter.commit`).
 */
export function commitRows(batches: readonly SpanBatch[], clears: readonly PendingTrace[], storedScopes: ReadonlySet<string>): CommitRows {
  const pending = new Map<string, CommitRows['pending'][number]>();
  const scopes = new Map<string, CommitRows['scopes'][number]>();
  for (const { organizationId, projectId, spans } of batches) {
    for (const scope of spans.scopes) {
      const key = scopeKey(projectId, scope.scopeId);
      if (!storedScopes.has(key)) scopes.set(key, { organizationId, projectId, scope });
    }
    for (let t = 0; t < spans.traces.length; t++) {
      const key = `${projectId}/${spans.traces[t]}`;
      if (!pending.has(key)) pending.set(key, { organizationId, projectId, traceKey: traceKeyAt(spans, spans.traceRows[t]!) });
    }
  }
  return {
    spans: batches.map((b) => ({ projectId: b.projectId, columns: b.spans })),
    receivedMicros: BigInt(Date.now()) * 1000n,
    pending: [...pending.values()],
    clears: clears.map((c) => ({ projectId: c.projectId, traceKey: BigInt(`0x${c.traceId}`), version: c.version })),
    scopes: [...scopes.values()],
  };
}

/**
 * One writer connection. `commit` writes a group in one transaction, in one
 * round trip: the statements read the group through the commit-source table
 * functions (filled on the event loop, a chunk at a time, while DuckDB's
 * thread runs the insert), so nothing is staged beforehand and no DuckDB
 * call blocks the event loop.
 */
export class SpanCommitter {
  private constructor(private readonly connection: DuckDBConnection) {}

  static open(connection: DuckDBConnection): SpanCommitter {
    registerCommitSources(connection);
    return new SpanCommitter(connection);
  }

  /**
   * Commits the rows; resolves to the keys of the scopes now stored. A key
   * clash (a re-sent span, a span repeated within the group, or a scope
   * another commit is writing) fails the fast path; the commit then starts
   * over with INSERT OR IGNORE, which keeps the first of equal keys.
   */
  async commit(rows: CommitRows): Promise<string[]> {
    const id = publish(rows);
    try {
      try {
        await this.transaction(id, rows, true);
      } catch (err) {
        if (!isConflict(err)) throw err;
        await this.transaction(id, rows, false);
      }
    } finally {
      release(id);
    }
    return rows.scopes.map((s) => scopeKey(s.projectId, s.scope.scopeId));
  }

  close(): void {
    this.connection.closeSync();
  }

  private async transaction(id: number, rows: CommitRows, fast: boolean): Promise<void> {
    const statements = ['BEGIN TRANSACTION'];
    if (rows.scopes.length) statements.push(`INSERT INTO span_scopes SELECT *, now() FROM scope_source(${id}) ON CONFLICT DO NOTHING`);
    if (rows.spans.length) {
      statements.push(`${fast ? 'INSERT' : 'INSERT OR IGNORE'} INTO spans SELECT * FROM span_source(${id})`);
      statements.push(`INSERT INTO trace_pending SELECT organization_id, project_id, trace_id, nextval('trace_pending_seq'), now() FROM pending_source(${id})`);
    }
    if (rows.clears.length) {
      statements.push(`DELETE FROM trace_pending USING clear_source(${id}) c
        WHERE trace_pending.project_id = c.project_id AND trace_pending.trace_id = c.trace_id AND trace_pending.seq <= c.seq`);
    }
    statements.push('COMMIT');
    try {
      // One round trip: each statement run on its own costs a hop to a DuckDB thread and back.
      await this.connection.run(statements.join(';\n'));
    } catch (err) {
      await this.connection.run('ROLLBACK').catch(() => undefined);
      throw err;
    }
  }
}
