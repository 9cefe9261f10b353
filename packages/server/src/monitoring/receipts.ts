import type { Logger } from '../logging/logger.js';
import { describeError } from '../logging/logger.js';
import type { BackgroundTask } from '../runtime.js';
import type { SqliteMonitoringRepository } from './repository.js';

/**
 * Coalesces "platform_b spans arrived" notes: each note only updates memory,
 * and the newest time per project is written every `flushMs` and on stop, so
 * span ingest can note every commit without a write per request. Reads
 * overlay the notes not yet written.
 */
export class SpanReceiptTracker implements BackgroundTask {
  readonly name = 'platform_b span receipts';
  private pending = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly repo: SqliteMonitoringRepository,
    private readonly log: Logger,
    private readonly flushMs = 2000,
  ) {}

  /** Notes that spans of the project arrived at `at` (ISO); an older time never replaces a newer one. */
  note(projectId: string, at: string): void {
    const current = this.pending.get(projectId);
    if (!current || at > current) this.pending.set(projectId, at);
  }

  /** The newest time noted but not yet written, if any. */
  pendingFor(projectId: string): string | undefined {
    return this.pending.get(projectId);
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending].map(([projectId, at]) => ({ projectId, at }));
    this.pending = new Map();
    try {
      await this.repo.recordSpanReceipts(batch);
    } catch (err) {
      for (const { projectId, at } of batch) this.note(projectId, at);
      this.log.warn('could not record platform_b span arrivals; will retry', describeError(err));
    }
  }

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.flushMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }
}
