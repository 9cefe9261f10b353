import type { Logger } from '../logging/logger.js';
import { describeError } from '../logging/logger.js';
import type { BackgroundTask } from '../runtime.js';
import type { PendingRow, SpanRepository, StoredSpan } from '../traces/repository.js';
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

  /** One round: derives the sessions of up to `batch` pending traces, a few queries per project; returns how many were cleared. */
  private async round(): Promise<number> {
    const pending = await this.spans.pending(this.options.batch);
    if (pending.length === 0) return 0;
    const byProject = new Map<string, PendingRow[]>();
    for (const row of pending) byProject.set(row.projectId, [...(byProject.get(row.projectId) ?? []), row]);
    const done: PendingTrace[] = [];
    for (const [projectId, rows] of byProject) {
      try {
        await this.deriveProject(projectId, rows);
        done.push(...rows);
      } catch (err) {
        this.options.log.error('conversation derivation failed', { project_id: projectId, traces: rows.length, ...describeError(err) });
      }
    }
    await this.options.clearPending(done);
    return done.length === pending.length ? pending.length : 0;
  }

  private async deriveProject(projectId: string, rows: PendingRow[]): Promise<void> {
    const sessionOf = await this.spans.sessionsOfTraces(projectId, rows.map((r) => r.traceId));
    const sessionIds = [...new Set([...sessionOf.values()].filter((s): s is string => s !== null))];
    const tracesOf = await this.spans.tracesOfSessions(projectId, sessionIds);
    const groups = new Map<string, { externalId: string; traceIds: Set<string>; standIns: string[] }>();
    for (const row of rows) {
      const sessionId = sessionOf.get(row.traceId) ?? null;
      const externalId = sessionId ?? row.traceId;
      const group = groups.get(externalId) ?? { externalId, traceIds: new Set(sessionId ? tracesOf.get(sessionId) : [row.traceId]), standIns: [] };
      if (sessionId) group.standIns.push(row.traceId);
      groups.set(externalId, group);
    }
    const traceOwner = new Map<string, string>();
    for (const g of groups.values()) for (const t of g.traceIds) traceOwner.set(t, g.externalId);
    const spansByGroup = new Map<string, StoredSpan[]>();
    for (const span of await this.spans.spansOfTraces(projectId, [...traceOwner.keys()])) {
      const owner = traceOwner.get(span.traceId)!;
      const list = spansByGroup.get(owner);
      if (list) list.push(span);
      else spansByGroup.set(owner, [span]);
    }
    const organizationId = rows[0]!.organizationId;
    for (const g of groups.values()) {
      const spans = spansByGroup.get(g.externalId);
      if (spans?.length) await this.conversations.upsert(conversationFromSpans({ organizationId, projectId, externalId: g.externalId, spans }));
    }
    // A trace first seen without its session id was derived under its trace id; that stand-in is now superseded.
    await this.conversations.remove(projectId, 'platform_b', [...groups.values()].flatMap((g) => g.standIns));
  }
}
