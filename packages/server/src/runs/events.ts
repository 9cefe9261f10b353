import type { RunEvent, RunEventDataOf, RunEventType } from '@svc/contract';
import type { SqliteDb } from '../storage/sqlite/connection.js';

/** An event to append: its type and that type's data. */
export type NewEvent = { [T in RunEventType]: { type: T; data: RunEventDataOf<T> } }[RunEventType];

/**
 * Appends events to a run. Call it inside the transaction that makes the
 * change they describe: `runs.last_event_seq` is bumped there, so seqs are
 * 1, 2, 3... with no gaps and an event exists exactly when its change does.
 */
export function appendEvents(db: SqliteDb, runId: string, events: readonly NewEvent[], at: string): void {
  const bump = db.prepare('UPDATE runs SET last_event_seq = last_event_seq + 1 WHERE id = ? RETURNING last_event_seq');
  const insert = db.prepare('INSERT INTO run_events (run_id, seq, type, at, data) VALUES (?, ?, ?, ?, ?)');
  for (const event of events) {
    const { last_event_seq: seq } = bump.get(runId) as { last_event_seq: number };
    insert.run(runId, seq, event.type, at, JSON.stringify(event.data));
  }
}

/** Events of a run after `after`, in order, at most `limit`. */
export function readEvents(db: SqliteDb, runId: string, after: number, limit: number): RunEvent[] {
  const rows = db.prepare('SELECT seq, type, at, data FROM run_events WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?').all(runId, after, limit) as Array<{
    seq: number;
    type: RunEventType;
    at: string;
    data: string;
  }>;
  return rows.map((r) => ({ seq: r.seq, type: r.type, at: r.at, data: JSON.parse(r.data) }) as RunEvent);
}

/**
 * In-process wake-ups for long-polls: a reader subscribes before it reads,
 * so an event committed between its read and its wait still wakes it.
 */
export class RunNotifier {
  private readonly waiters = new Map<string, Set<() => void>>();
  private draining = false;

  /** Resolves on the run's next `notify`, after `timeoutMs`, or at `drain`; `cancel` forgets it. */
  subscribe(runId: string, timeoutMs: number): { wait: Promise<void>; cancel: () => void } {
    let wake!: () => void;
    let timer: NodeJS.Timeout | undefined;
    const wait = new Promise<void>((resolve) => (wake = resolve));
    const set = this.waiters.get(runId) ?? new Set();
    this.waiters.set(runId, set);
    const cancel = () => {
      clearTimeout(timer);
      set.delete(done);
      if (set.size === 0 && this.waiters.get(runId) === set) this.waiters.delete(runId);
    };
    const done = () => {
      cancel();
      wake();
    };
    set.add(done);
    if (this.draining) done();
    else timer = setTimeout(done, timeoutMs);
    return { wait, cancel };
  }

  /** Wakes every reader of the run. */
  notify(runId: string): void {
    for (const done of [...(this.waiters.get(runId) ?? [])]) done();
  }

  /** Wakes every reader now and from now on (shutdown: long-polls answer at once so the server can close). */
  drain(): void {
    this.draining = true;
    for (const set of [...this.waiters.values()]) for (const done of [...set]) done();
  }
}
