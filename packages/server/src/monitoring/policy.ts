/**
 * The importer's fixed rules, in one place so the importer, the replay and
 * the tests agree. Durations are milliseconds unless named otherwise.
 */
export const POLICY = {
  /** The platform lists conversations of the last 30 days only. */
  listWindowSecs: 30 * 86400,
  /** Each listing starts this far before the watermark, catching calls the platform lists a little late. */
  overlapSecs: 600,
  /** Settled calls older than watermark - overlap - this are forgotten (a listing never shows them again). */
  pruneMarginSecs: 86400,
  pageSize: 100,
  /** Pages listed per agent and run; the listing's cursor is durable, so the next run continues. */
  maxPagesPerRun: 200,
  /** Conversations fetched per agent and run before yielding to the other agents (the setup is rescheduled at once). */
  maxFetchesPerRun: 2000,
  fetchConcurrency: 16,
  batchSize: 100,
  /** Reads of a call listed as done before an import failure opens, and the waits between them. */
  readsBeforeFailure: 3,
  readBackoffMs: [400, 1200] as readonly number[],
  /** Runs in which one call's fetch failed temporarily before it becomes a failure instead of stopping the run. */
  fetchErrorsBeforeFailure: 3,
  /** A call still in progress or processing this long after it was first listed becomes a failure. */
  pendingGiveUpMs: 24 * 3600 * 1000,
  /** Automatic retries of an open failure stop once it has been read this many times; replay still works. */
  maxAutomaticAttempts: 8,
  maxRetryDelayMs: 6 * 3600 * 1000,
  /** Open failures retried automatically per agent and run. */
  retriesPerRun: 20,
} as const;

/** When the next automatic retry of a failure read `attempts` times is due: `base`, then 4x longer each time (capped). */
export function nextRetryAt(now: Date, attempts: number, baseMs: number): string {
  const steps = Math.max(0, attempts - POLICY.readsBeforeFailure);
  const delay = Math.min(POLICY.maxRetryDelayMs, baseMs * 4 ** steps);
  return new Date(now.getTime() + delay).toISOString();
}
