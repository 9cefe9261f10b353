import { AppError } from '../http/errors.js';
import type { Logger } from '../logging/logger.js';
import { describeError } from '../logging/logger.js';
import type { SpanIngestListener } from './listener.js';
import type { DuckDBConnection } from '@duckdb/node-api';
import { type PendingTrace, type SpanBatch, SpanCommitter, commitRows } from './writer-commit.js';

export type { PendingTrace, SpanBatch } from './writer-commit.js';

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

/** How long after the last arrival or commit the writer still counts as busy. */
const BUSY_GRACE_MS = 100;

interface Waiting {
  batch: SpanBatch;
  resolve: () => void;
  reject: (err: unknown) => void;
}

interface Clearing {
  traces: PendingTrace[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * The writer of spans. Requests enqueue their spans and wait; a loop takes
 * everything queued (up to `maxCommitSpans`) and commits it in one DuckDB
 * transaction — group commit — so concurrent exporters share the cost of
 * durability. Commits run one at a time on the writer's connection: what
 * arrives meanwhile forms the next group, and the commit reads its rows
 * through table functions as it runs, so there is nothing to stage ahead.
 * (Two concurrent transactions writing the same span, a re-send, would also
 * miss each other's uncommitted row, and one would fail at COMMIT.) A request
 * is answered only after its transaction committed. Over `maxQueuedSpans` it
 * refuses with 503.
 */
export class SpanWriter {
  private queue: Waiting[] = [];
  private queuedSpans = 0;
  /** When spans last arrived or a commit ended (ms since the epoch). */
  private lastActivity = 0;
  private running: Promise<void> | null = null;
  private closed = false;
  private clears: Clearing[] = [];
  /** `project/scopeId` of scopes known to be stored, so most commits skip their insert. */
  private readonly storedScopes = new Set<string>();

  private constructor(
    private readonly committer: SpanCommitter,
    private readonly options: SpanWriterOptions,
  ) {}

  /** A writer on its own connection. */
  static async open(connection: DuckDBConnection, options: SpanWriterOptions): Promise<SpanWriter> {
    return new SpanWriter(SpanCommitter.open(connection), options);
  }

  /** Stores the batch; resolves once it is committed. Rejects with 503 `unavailable` when the queue is full. */
  write(batch: SpanBatch): Promise<void> {
    if (this.closed) return Promise.reject(new AppError('unavailable', 'The server is shutting down; retry shortly.', undefined, { 'Retry-After': '1' }));
    const n = batch.spans.count;
    if (n === 0) return Promise.resolve();
    if (this.queuedSpans > 0 && this.queuedSpans + n > this.options.maxQueuedSpans) {
      return Promise.reject(
        new AppError('unavailable', 'The span write queue is full; retry after the delay in Retry-After.', { queued_spans: this.queuedSpans }, { 'Retry-After': '1' }),
      );
    }
    this.queuedSpans += n;
    this.lastActivity = Date.now();
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ batch, resolve, reject });
      this.kick();
    });
  }

  /**
   * True while spans are queued or being committed, or were moments ago:
   * background readers (derivation) defer to it. The grace period covers the
   * gaps of a burst, when the next requests are still being decoded.
   */
  get busy(): boolean {
    return this.queue.length > 0 || this.running !== null || Date.now() - this.lastActivity < BUSY_GRACE_MS;
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
    this.committer.close();
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
      while (this.queue.length && (group.length === 0 || spans + this.queue[0]!.batch.spans.count <= this.options.maxCommitSpans)) {
        const next = this.queue.shift()!;
        group.push(next);
        spans += next.batch.spans.count;
      }
      const clears = this.clears;
      this.clears = [];
      try {
        await this.commit(group, clears);
      } finally {
        this.queuedSpans -= spans;
        this.lastActivity = Date.now();
      }
    }
  }

  private async commit(group: Waiting[], clears: Clearing[]): Promise<void> {
    try {
      const rows = commitRows(group.map((w) => w.batch), clears.flatMap((c) => c.traces), this.storedScopes);
      for (const key of await this.committer.commit(rows)) this.storedScopes.add(key);
    } catch (err) {
      this.fail(group, clears, err);
      return;
    }
    for (const w of group) w.resolve();
    for (const c of clears) c.resolve();
    if (group.length) this.notify(group);
  }

  private fail(group: Waiting[], clears: Clearing[], err: unknown): void {
    this.options.log.error('span commit failed', describeError(err));
    const refusal = new AppError('unavailable', 'The spans could not be stored; retry.', undefined, { 'Retry-After': '1' });
    for (const w of group) w.reject(refusal);
    for (const c of clears) c.reject(err);
  }

  private notify(group: Waiting[]): void {
    const receivedAt = new Date().toISOString();
    const byProject = new Map<string, { organizationId: string; projectId: string; spanCount: number }>();
    for (const { batch } of group) {
      const entry = byProject.get(batch.projectId) ?? { organizationId: batch.organizationId, projectId: batch.projectId, spanCount: 0 };
      entry.spanCount += batch.spans.count;
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
