/** Why a request to an outside service (the model, the agent) failed. */
export class UpstreamError extends Error {
  constructor(
    message: string,
    /** HTTP status, or 0 when nothing was answered (network, timeout). */
    readonly status: number,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

export interface PostOptions {
  headers?: Record<string, string>;
  timeoutMs: number;
  /** Attempts after the first. */
  retries: number;
  /** Whether a status (0 for network failure or timeout) may be retried. */
  retryable: (status: number) => boolean;
  signal: AbortSignal;
}

export interface PostResult {
  status: number;
  body: unknown;
  /** Time of the attempt that answered, in milliseconds. */
  latencyMs: number;
}

const MAX_RETRY_AFTER_MS = 5_000;

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function backoffMs(attempt: number, retryAfter: string | null): number {
  const seconds = retryAfter === null ? NaN : Number(retryAfter);
  if (Number.isFinite(seconds)) return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, seconds * 1000));
  const ceiling = 250 * 2 ** attempt;
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/**
 * POSTs JSON with a per-attempt timeout, retrying the statuses `retryable`
 * allows with exponential backoff (Retry-After honoured, capped at 5 s).
 * A 2xx answers with its parsed JSON; anything else throws `UpstreamError`.
 * Aborting `signal` (cancel, shutdown) rejects with its reason at once.
 */
export async function postJson(url: string, body: unknown, options: PostOptions): Promise<PostResult> {
  for (let attempt = 0; ; attempt++) {
    const started = performance.now();
    let status = 0;
    let message: string;
    let retryAfter: string | null = null;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...options.headers },
        body: JSON.stringify(body),
        signal: AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]),
      });
      status = response.status;
      retryAfter = response.headers.get('retry-after');
      const text = await response.text();
      const latencyMs = Math.round(performance.now() - started);
      if (response.ok) {
        try {
          return { status, body: JSON.parse(text) as unknown, latencyMs };
        } catch {
          throw new UpstreamError(`answered ${status} with a body that is not JSON`, status);
        }
      }
      message = `answered ${status}: ${text.slice(0, 200)}`;
    } catch (err) {
      if (options.signal.aborted) throw options.signal.reason;
      if (err instanceof UpstreamError) throw err;
      message = (err as Error).name === 'TimeoutError' ? `did not answer within ${options.timeoutMs} ms` : `could not be reached: ${(err as Error).message}`;
      status = 0;
    }
    if (attempt >= options.retries || !options.retryable(status)) throw new UpstreamError(message, status);
    await sleep(backoffMs(attempt, retryAfter), options.signal);
  }
}
