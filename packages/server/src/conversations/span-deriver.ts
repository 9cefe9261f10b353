import type { Logger } from '../logging/logger.js';
import { describeError } from '../logging/logger.js';
import type { BackgroundTask } from '../runtime.js';
import type { PendingRow, SpanRepository } from '../traces/repository.js';
import type { PendingTrace } from '../traces/writer.js';
import { conversationFromSpans } from './from-spans.js';
import type { ConversationRepository } from './repository.js';

export interface SpanDeriverOptions {
  /** How long to gather commits before deriving (ms). */
  debounceMs: number;
  /** Pending traces taken per round. */
  batch: number;
  log: Logger;
  /** Clears derivation markers through the span writer, which owns them. */
  clearPending(traces: PendingTrace[]): Promise<void>;
}

/**
 * Keeps platform_b conversations in step with stored spans, off the ingest
 * path: the span writer marks each trace it touches as pending in the same
 * transaction as its spans; this task derives the pending sessions in
 * batches and clears each marker unless newer spans arrived meanwhile. On
 * start it finishes whatever a crash left pending.
 */
export class SpanConversationDeriver implements BackgroundTask {
  readonly name = 'span-conversation-deriver';
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private again = false;

  constructor(
    private readonly spans: SpanRepository,
    private readonly conversations: ConversationRepository,
    private readonly options: SpanDeriverOptions,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** New spans were committed: derive soon. */
  notify(): void {
    this.schedule(this.options.debounceMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Derives until nothing is pending (tests and shutdown use it). */
  async drain(): Promise<void> {
    while (!this.stopped && (await this.round()) > 0);
  }

  private schedule(delayMs: number): void {
    if (this.stopped || this.timer) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.drain()
        .catch((err) => this.options.log.error('conversation derivation failed', describeError(err)))
        .finally(() => {
          this.running = null;
          if (this.again) {
            this.again = false;
            this.schedule(this.options.debounceMs);
          }
        });
    }, delayMs);
    this.timer.unref();
  }

  /** One round: derives the sessions of up to `batch` pending traces; returns how many were taken. */
  private async round(): Promise<number> {
    const pending = await this.spans.pending(this.options.batch);
    if (pending.length === 0) return 0;
    const done: PendingTrace[] = [];
    const sessions = new Map<string, { row: PendingRow; sessionId: string | null; traces: PendingRow[] }>();
    for (const row of pending) {
      const sessionId = await this.spans.sessionOfTrace(row.projectId, row.traceId);
      const key = `${row.projectId}/${sessionId ?? `trace:${row.traceId}`}`;
      const entry = sessions.get(key) ?? { row, sessionId, traces: [] };
      entry.traces.push(row);
      sessions.set(key, entry);
    }
    for (const { row, sessionId, traces } of sessions.values()) {
      try {
        await this.derive(row, sessionId, traces);
        done.push(...traces);
      } catch (err) {
        this.options.log.error('conversation derivation failed for a session', { project_id: row.projectId, trace_id: row.traceId, ...describeError(err) });
      }
    }
    await this.options.clearPending(done);
    return done.length === pending.length ? pending.length : 0;
  }

  private async derive(row: PendingRow, sessionId: string | null, traces: PendingRow[]): Promise<void> {
    const traceIds = sessionId ? await this.spans.tracesOfSession(row.projectId, sessionId) : [row.traceId];
    const spans = await this.spans.spansOfTraces(row.projectId, traceIds);
    if (spans.length === 0) return;
    const externalId = sessionId ?? row.traceId;
    await this.conversations.upsert(conversationFromSpans({ organizationId: row.organizationId, projectId: row.projectId, externalId, spans }));
    // A trace first seen without its session id was derived under its trace id; that stand-in is now superseded.
    if (sessionId) for (const t of traces) await this.conversations.remove(row.projectId, 'platform_b', t.traceId);
  }
}
