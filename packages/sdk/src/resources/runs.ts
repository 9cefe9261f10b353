import {
  type BodyInputOf,
  type GetRunEventsResponse,
  type QueryInputOf,
  type RunEvent,
  type RunListItem,
  type RunObject,
  RUN_LIMITS,
  cancelRun,
  createRun,
  getRun,
  listRunEvents,
  listRuns,
} from '@svc/contract';
import { PagedList } from '../core/pagination.js';
import type { Transport } from '../core/transport.js';

export type RunCreateParams = BodyInputOf<typeof createRun>;
export type RunListFilter = Omit<NonNullable<QueryInputOf<typeof listRuns>>, 'cursor'>;

export interface RunEventsOptions {
  /** Start after this seq (default 0: from the first event). */
  after?: number;
  /** Seconds each read may wait for a new event (default 20, at most 30). */
  wait?: number;
  /** Events per read (default 100). */
  limit?: number;
}

export interface RunWaitOptions extends RunEventsOptions {
  /** Called with every event as it is read. */
  onEvent?: (event: RunEvent) => void;
}

/**
 * Runs: execute pinned test versions against an agent and follow them.
 * @example
 * const run = await svc.runs.create({ test_versions: [test.version_id], agent_id: 'agt_...' }, { idempotencyKey: 'ci-1234' });
 * const done = await svc.runs.wait(run.id, { onEvent: (e) => console.log(e.seq, e.type) });
 * if (done.status !== 'passed') process.exitCode = 1;
 */
export class RunsResource {
  constructor(private readonly t: Transport) {}

  /**
   * Creates a run. Without an `idempotencyKey` the request is not retried (each
   * accepted one makes a new run); with one, a retry after a lost response
   * returns the same run, so transient failures are retried.
   */
  create(body: RunCreateParams, options: { idempotencyKey?: string } = {}): Promise<RunObject> {
    const key = options.idempotencyKey;
    return this.t.request(createRun, { body, ...(key ? { headers: { 'idempotency-key': key }, idempotent: true } : {}) });
  }

  /** A run with every call's result. */
  get(runId: string): Promise<RunObject> {
    return this.t.request(getRun, { params: { runId } });
  }

  /** The project's runs, newest first (without per-call results). */
  list(filter: RunListFilter = {}): PagedList<RunListItem> {
    return new PagedList(async (cursor) => {
      const page = await this.t.request(listRuns, { query: { ...filter, cursor } });
      return { items: page.items, next: page.next_cursor };
    });
  }

  /** Cancels a queued or running run (a finished one throws `ConflictError` `run_finished`). Safe to repeat. */
  cancel(runId: string): Promise<RunObject> {
    return this.t.request(cancelRun, { params: { runId }, body: {}, idempotent: true });
  }

  /** One read of the run's events after `after` (`wait` seconds of long-poll when nothing follows). */
  eventsPage(runId: string, query: { after?: number; limit?: number; wait?: number } = {}): Promise<GetRunEventsResponse> {
    return this.t.request(listRunEvents, { params: { runId }, query });
  }

  /** Every event of the run in order, long-polling for new ones, until the run is done. */
  async *events(runId: string, options: RunEventsOptions = {}): AsyncGenerator<RunEvent> {
    let after = options.after ?? 0;
    const wait = Math.min(options.wait ?? 20, RUN_LIMITS.waitSeconds);
    for (;;) {
      const page = await this.eventsPage(runId, { after, wait, ...(options.limit ? { limit: options.limit } : {}) });
      yield* page.events;
      after = page.next;
      if (page.done) return;
    }
  }

  /** Follows the run's events until it is done, then returns the finished run. */
  async wait(runId: string, options: RunWaitOptions = {}): Promise<RunObject> {
    for await (const event of this.events(runId, options)) options.onEvent?.(event);
    return this.get(runId);
  }
}
