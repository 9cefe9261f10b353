import type Koa from 'koa';
import { AppError } from './errors.js';

/** The state of one organization's current window after counting a request. */
export interface WindowState {
  count: number;
  resetAtMs: number;
}

/**
 * Counts requests per key in fixed windows. In memory by default; a shared
 * store (Redis, PostgreSQL) can implement this for several server processes.
 */
export interface RateLimitStore {
  hit(key: string, windowMs: number, nowMs: number): Promise<WindowState>;
}

/** Fixed windows that start at an organization's first request and last `windowMs`. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, WindowState>();
  private lastSweepMs = 0;

  async hit(key: string, windowMs: number, nowMs: number): Promise<WindowState> {
    if (nowMs - this.lastSweepMs > windowMs) this.sweep(nowMs);
    let state = this.windows.get(key);
    if (!state || state.resetAtMs <= nowMs) {
      state = { count: 0, resetAtMs: nowMs + windowMs };
      this.windows.set(key, state);
    }
    state.count += 1;
    return { ...state };
  }

  private sweep(nowMs: number): void {
    this.lastSweepMs = nowMs;
    for (const [key, state] of this.windows) if (state.resetAtMs <= nowMs) this.windows.delete(key);
  }
}

const WINDOW_MS = 60_000;

/**
 * Counts the request against its organization's window, sets the IETF
 * RateLimit headers, and refuses with 429 and `Retry-After` over the limit.
 */
export async function enforceRateLimit(ctx: Koa.Context, store: RateLimitStore, organizationId: string, limit: number): Promise<void> {
  const now = Date.now();
  const state = await store.hit(`org:${organizationId}`, WINDOW_MS, now);
  const resetSeconds = Math.max(1, Math.ceil((state.resetAtMs - now) / 1000));
  const remaining = Math.max(0, limit - state.count);
  ctx.set('RateLimit-Policy', `"org";q=${limit};w=${WINDOW_MS / 1000}`);
  ctx.set('RateLimit', `"org";r=${remaining};t=${resetSeconds}`);
  if (state.count > limit) {
    throw new AppError(
      'too_many_requests',
      `The organization's limit of ${limit} requests per minute is used up; retry after ${resetSeconds} s.`,
      { limit, retry_after_seconds: resetSeconds },
      { 'Retry-After': String(resetSeconds) },
    );
  }
}
