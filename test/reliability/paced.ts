import { performance } from 'node:perf_hooks';

/** One request of a paced load: when it was handed to fetch, when its answer arrived, and the status. */
export interface PacedResult {
  sentAt: number;
  receivedAt: number;
  status: number;
}

/**
 * Sends `send()` at about `perSecond` without waiting for answers (an open
 * loop, so a slow server does not lower the offered load) until `done()`,
 * given every send time so far (increasing), says so or `maxRequests` are sent, and resolves every request's timing once
 * all have answered. `sentAt` is taken before `send()` is called, so a
 * request whose `sentAt` is after some event cannot have left before it.
 */
export async function pacedLoad(send: () => Promise<number>, perSecond: number, done: (sentAt: readonly number[]) => boolean, maxRequests: number): Promise<PacedResult[]> {
  const started = performance.now();
  const pending: Promise<PacedResult>[] = [];
  const sentTimes: number[] = [];
  while (pending.length < maxRequests && !done(sentTimes)) {
    const due = Math.min(maxRequests, Math.floor(((performance.now() - started) * perSecond) / 1000) + 1);
    while (pending.length < due) {
      const sentAt = performance.now();
      sentTimes.push(sentAt);
      pending.push(
        send().then(
          (status) => ({ sentAt, receivedAt: performance.now(), status }),
          () => ({ sentAt, receivedAt: performance.now(), status: 0 }),
        ),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return Promise.all(pending);
}

/** Counts of each value, as `{"200": 3, "401": 2}` (for figures and assertion messages). */
export function tally(values: Iterable<number | string>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[String(v)] = (out[String(v)] ?? 0) + 1;
  return out;
}
