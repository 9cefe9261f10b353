import type { Logger } from '../logging/logger.js';
import { describeError } from '../logging/logger.js';
import type { BackgroundTask } from '../runtime.js';

/** Runs one setup once; `more` asks for the next run at once instead of after the poll interval. */
export type SetupRunner = (setupId: string, signal: AbortSignal) => Promise<{ more: boolean }>;

export interface SchedulerOptions {
  /** Every platform_a setup, with the time before which the platform must not be called. */
  setups: () => Promise<Array<{ id: string; notBefore: string | null }>>;
  run: SetupRunner;
  pollMs: number;
  /** Setups polled at the same time. */
  concurrency: number;
  log: Logger;
}

/** What the monitoring service needs of the scheduler. */
export interface SchedulerControl {
  /** Cancels a setup's run in flight (if any) and polls it again now. */
  restart(setupId: string): void;
  /** Cancels a setup's run in flight (if any); it is not polled again unless it still exists. */
  cancel(setupId: string): void;
}

/**
 * Polls every platform_a setup each `pollMs`, at most `concurrency` at once,
 * beside request handling (all work is asynchronous I/O). A setup that the
 * platform rate limited is not called before its Retry-After has passed.
 */
export class ImportScheduler implements BackgroundTask, SchedulerControl {
  readonly name = 'platform_a importer';
  private readonly inflight = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private readonly nextDue = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private ticking = false;
  private stopped = true;

  constructor(private readonly options: SchedulerOptions) {}

  private get tickMs(): number {
    return Math.min(1000, Math.max(20, Math.floor(this.options.pollMs / 2)));
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    for (const run of this.inflight.values()) run.controller.abort();
    await Promise.all([...this.inflight.values()].map((r) => r.done));
  }

  restart(setupId: string): void {
    this.inflight.get(setupId)?.controller.abort();
    this.nextDue.set(setupId, 0);
    this.schedule(0);
  }

  cancel(setupId: string): void {
    this.inflight.get(setupId)?.controller.abort();
    this.nextDue.delete(setupId);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), ms);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (this.stopped || this.ticking) return;
    this.ticking = true;
    try {
      const setups = await this.options.setups();
      const known = new Set(setups.map((s) => s.id));
      for (const id of this.nextDue.keys()) if (!known.has(id)) this.nextDue.delete(id);
      const now = Date.now();
      const due = setups
        .filter((s) => !this.inflight.has(s.id) && (this.nextDue.get(s.id) ?? 0) <= now && !(s.notBefore && Date.parse(s.notBefore) > now))
        .sort((a, b) => (this.nextDue.get(a.id) ?? 0) - (this.nextDue.get(b.id) ?? 0)); // longest waiting first: no setup starves
      for (const s of due) {
        if (this.inflight.size >= this.options.concurrency) break;
        this.launch(s.id);
      }
    } catch (err) {
      this.options.log.error('could not read the monitoring setups', describeError(err));
    } finally {
      this.ticking = false;
      this.schedule(this.tickMs);
    }
  }

  private launch(setupId: string): void {
    const controller = new AbortController();
    const done = this.options
      .run(setupId, controller.signal)
      .then(
        (result) => {
          if (!controller.signal.aborted) this.nextDue.set(setupId, result.more ? Date.now() : Date.now() + this.options.pollMs);
        },
        (err: unknown) => {
          this.options.log.error('platform_a import run failed', { setup_id: setupId, ...describeError(err) });
          if (!controller.signal.aborted) this.nextDue.set(setupId, Date.now() + this.options.pollMs);
        },
      )
      .finally(() => {
        if (this.inflight.get(setupId)?.controller === controller) this.inflight.delete(setupId);
        if (!this.stopped && (this.nextDue.get(setupId) ?? 0) <= Date.now()) this.schedule(0);
      });
    this.inflight.set(setupId, { controller, done });
  }
}
