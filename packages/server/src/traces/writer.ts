import { type DuckDBAppender, type DuckDBConnection, DuckDBTimestampValue } from '@duckdb/node-api';
import { AppError } from '../http/errors.js';
import type { Logger } from '../logging/logger.js';
import { describeError } from '../logging/logger.js';
import type { SpanRecord } from '../otlp/records.js';
import { SPAN_COLUMNS } from '../storage/duckdb/schema/spans.js';
import type { SpanIngestListener } from './listener.js';

/** The spans of one accepted request, in the key's project. */
export interface SpanBatch {
  organizationId: string;
  projectId: string;
  records: SpanRecord[];
}

/** A pending-derivation marker to clear once its conversation is derived, unless newer spans arrived. */
export interface PendingTrace {
  projectId: string;
  traceId: string;
  version: bigint;
}

export interface SpanWriterOptions {
  /** Spans queued or being committed above which new requests get 503. */
  maxQueuedSpans: number;
  /** Largest number of spans committed in one transaction. */
  maxCommitSpans: number;
  log: Logger;
  listeners?: SpanIngestListener[];
  /** Called after each commit that stored spans (e.g. to wake the conversation deriver). */
  onCommitted?: () => void;
}

interface Waiting {
  batch: SpanBatch;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * The single writer of spans. Requests enqueue their spans and wait; one loop
 * takes everything queued (up to `maxCommitSpans`) and commits it in one
 * DuckDB transaction on its own connection — group commit — so concurrent
 * exporters share the cost of durability. A request is answered only after
 * its transaction committed. Over `maxQueuedSpans` it refuses with 503.
 */
export class SpanWriter {
  private queue: Waiting[] = [];
  private queuedSpans = 0;
  private running: Promise<void> | null = null;
  private closed = false;
  private clears: Array<{ traces: PendingTrace[]; resolve: () => void; reject: (err: unknown) => void }> = [];

  constructor(
    private readonly connection: DuckDBConnection,
    private readonly options: SpanWriterOptions,
  ) {}

  /** Prepares the writer's connection (its private staging table). */
  static async open(connection: DuckDBConnection, options: SpanWriterOptions): Promise<SpanWriter> {
    await connection.run(`CREATE TEMP TABLE span_staging (${SPAN_COLUMNS.replace(/ NOT NULL/g, '')})`);
    await connection.run('CREATE TEMP TABLE pending_staging (organization_id VARCHAR, project_id VARCHAR, trace_id VARCHAR)');
    return new SpanWriter(connection, options);
  }

  /** Stores the batch; resolves once it is committed. Rejects with 503 `unavailable` when the queue is full. */
  write(batch: SpanBatch): Promise<void> {
    if (this.closed) return Promise.reject(new AppError('unavailable', 'The server is shutting down; retry shortly.', undefined, { 'Retry-After': '1' }));
    const n = batch.records.length;
    if (n === 0) return Promise.resolve();
    if (this.queuedSpans > 0 && this.queuedSpans + n > this.options.maxQueuedSpans) {
      return Promise.reject(
        new AppError('unavailable', 'The span write queue is full; retry after the delay in Retry-After.', { queued_spans: this.queuedSpans }, { 'Retry-After': '1' }),
      );
    }
    this.queuedSpans += n;
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ batch, resolve, reject });
      this.kick();
    });
  }

  /** Clears derivation markers in the writer's next transaction (the writer owns `trace_pending`). */
  clearPending(traces: PendingTrace[]): Promise<void> {
    if (traces.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.clears.push({ traces, resolve, reject });
      this.kick();
    });
  }

  /** Commits what is queued, then stops accepting. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.running) await this.running;
    this.connection.closeSync();
  }

  private kick(): void {
    if (this.running) return;
    this.running = this.loop().finally(() => {
      this.running = null;
      if (this.queue.length || this.clears.length) this.kick();
    });
  }

  private async loop(): Promise<void> {
    while (this.queue.length || this.clears.length) {
      const group: Waiting[] = [];
      let spans = 0;
      while (this.queue.length && (group.length === 0 || spans + this.queue[0]!.batch.records.length <= this.options.maxCommitSpans)) {
        const next = this.queue.shift()!;
        group.push(next);
        spans += next.batch.records.length;
      }
      const clears = this.clears;
      this.clears = [];
      try {
        await this.commit(group, clears.flatMap((c) => c.traces));
        for (const w of group) w.resolve();
        for (const c of clears) c.resolve();
      } catch (err) {
        this.options.log.error('span commit failed', describeError(err));
        const refusal = new AppError('unavailable', 'The spans could not be stored; retry.', undefined, { 'Retry-After': '1' });
        for (const w of group) w.reject(refusal);
        for (const c of clears) c.reject(err);
      } finally {
        this.queuedSpans -= spans;
      }
      if (group.length) this.notify(group);
    }
  }

  /**
   * One transaction: the group's spans appended straight into `spans` (its
   * primary key refuses a re-sent span, and then the group goes the slower
   * way, through a staging table and INSERT OR IGNORE), the derivation
   * markers of the traces it touched, and the markers the deriver cleared.
   */
  private async commit(group: Waiting[], clears: PendingTrace[]): Promise<void> {
    const c = this.connection;
    await c.run('BEGIN TRANSACTION');
    try {
      if (group.length) {
        const receivedAt = new DuckDBTimestampValue(BigInt(Date.now()) * 1000n);
        const traces = new Map<string, [string, string, string]>();
        for (const { batch } of group) for (const r of batch.records) traces.set(`${batch.projectId}/${r.traceId}`, [batch.organizationId, batch.projectId, r.traceId]);
        try {
          this.appendAll(await c.createAppender('spans'), group, receivedAt);
        } catch (err) {
          if (!/constraint|duplicate key/i.test((err as Error).message)) throw err;
          await c.run('ROLLBACK');
          await c.run('BEGIN TRANSACTION');
          this.appendAll(await c.createAppender('span_staging', 'main', 'temp'), group, receivedAt);
          await c.run('INSERT OR IGNORE INTO spans SELECT DISTINCT ON (project_id, trace_id, span_id) * FROM span_staging');
          await c.run('DELETE FROM span_staging');
        }
        const marks = await c.createAppender('pending_staging', 'main', 'temp');
        for (const [organizationId, projectId, traceId] of traces.values()) {
          marks.appendVarchar(organizationId);
          marks.appendVarchar(projectId);
          marks.appendVarchar(traceId);
          marks.endRow();
        }
        marks.flushSync();
        marks.closeSync();
        await c.run(`INSERT INTO trace_pending SELECT organization_id, project_id, trace_id, 1, now() FROM pending_staging
          ON CONFLICT (project_id, trace_id) DO UPDATE SET version = trace_pending.version + 1, updated_at = excluded.updated_at`);
        await c.run('DELETE FROM pending_staging');
      }
      for (const p of clears) {
        await c.run('DELETE FROM trace_pending WHERE project_id = $1 AND trace_id = $2 AND version = $3', [p.projectId, p.traceId, p.version]);
      }
      await c.run('COMMIT');
    } catch (err) {
      await c.run('ROLLBACK').catch(() => undefined);
      await c.run('DELETE FROM span_staging').catch(() => undefined);
      await c.run('DELETE FROM pending_staging').catch(() => undefined);
      throw err;
    }
  }

  /** Appends every span of the group once (a span repeated within the group is written once). */
  private appendAll(appender: DuckDBAppender, group: Waiting[], receivedAt: DuckDBTimestampValue): void {
    const seen = new Set<string>();
    try {
      for (const { batch } of group) {
        for (const r of batch.records) {
          const key = `${batch.projectId}/${r.traceId}/${r.spanId}`;
          if (seen.has(key)) continue;
          seen.add(key);
          appendRecord(appender, batch, r, receivedAt);
        }
      }
      appender.flushSync();
    } finally {
      try {
        appender.closeSync();
      } catch {
        /* the flush error is the one that matters */
      }
    }
  }

  private notify(group: Waiting[]): void {
    const receivedAt = new Date().toISOString();
    const byProject = new Map<string, { organizationId: string; projectId: string; spanCount: number }>();
    for (const { batch } of group) {
      const entry = byProject.get(batch.projectId) ?? { organizationId: batch.organizationId, projectId: batch.projectId, spanCount: 0 };
      entry.spanCount += batch.records.length;
      byProject.set(batch.projectId, entry);
    }
    for (const listener of this.options.listeners ?? []) {
      for (const entry of byProject.values()) {
        try {
          listener.onSpansStored({ ...entry, receivedAt });
        } catch (err) {
          this.options.log.warn('span ingest listener failed', describeError(err));
        }
      }
    }
    this.options.onCommitted?.();
  }
}

function appendRecord(a: DuckDBAppender, batch: SpanBatch, r: SpanRecord, receivedAt: DuckDBTimestampValue): void {
  const text = (v: string | null) => (v === null ? a.appendNull() : a.appendVarchar(v));
  a.appendVarchar(batch.organizationId);
  a.appendVarchar(batch.projectId);
  a.appendVarchar(r.traceId);
  a.appendVarchar(r.spanId);
  text(r.parentSpanId);
  a.appendVarchar(r.name);
  a.appendUTinyInt(r.kind);
  a.appendUBigInt(r.startNs);
  a.appendUBigInt(r.endNs);
  a.appendUTinyInt(r.statusCode);
  text(r.statusMessage);
  text(r.traceState);
  a.appendUInteger(r.flags);
  a.appendVarchar(r.attributes);
  a.appendVarchar(r.resourceAttributes);
  text(r.scopeName);
  text(r.scopeVersion);
  a.appendVarchar(r.scopeAttributes);
  a.appendVarchar(r.events);
  a.appendVarchar(r.links);
  a.appendUInteger(r.droppedAttributesCount);
  a.appendUInteger(r.droppedEventsCount);
  a.appendUInteger(r.droppedLinksCount);
  text(r.sessionId);
  a.appendTimestamp(receivedAt);
  a.endRow();
}
