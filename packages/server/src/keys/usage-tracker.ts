import type { Logger } from '../logging/logger.js';
import { describeError } from '../logging/logger.js';
import type { KeyRepository } from './repository.js';

/**
 * Coalesces `last_used_at` updates: a successful use is noted in memory and
 * written in one batch every `flushMs`, so authentication costs no database
 * write per request. Reads overlay the pending values, so lists are current.
 */
export class KeyUsageTracker {
  private pending = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly repository: KeyRepository,
    private readonly log: Logger,
  ) {}

  note(keyId: string, at: string = new Date().toISOString()): void {
    this.pending.set(keyId, at);
  }

  /** The not-yet-written last use of a key, if any. */
  pendingFor(keyId: string): string | undefined {
    return this.pending.get(keyId);
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending].map(([id, at]) => ({ id, at }));
    this.pending = new Map();
    try {
      await this.repository.recordUsage(batch);
    } catch (err) {
      for (const { id, at } of batch) if (!this.pending.has(id)) this.pending.set(id, at);
      this.log.warn('could not record key usage; will retry', describeError(err));
    }
  }

  start(flushMs: number): void {
    this.timer = setInterval(() => void this.flush(), flushMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }
}
