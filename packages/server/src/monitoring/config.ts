import { ConfigError, integer } from '../config.js';

/** The monitoring settings read from the environment (README, "Configuration"). */
export interface MonitoringConfig {
  platformAUrl: string;
  pollMs: number;
  timeoutMs: number;
  /** Setups polled at the same time. */
  concurrency: number;
  /** First automatic retry of an open import failure; each later one waits 4x longer. */
  retryBaseMs: number;
}

/** Reads the `SVC_PLATFORM_A_*` variables. */
export function loadMonitoringConfig(env: NodeJS.ProcessEnv): MonitoringConfig {
  const url = env.SVC_PLATFORM_A_URL || 'http://127.0.0.1:3200';
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw new ConfigError(`SVC_PLATFORM_A_URL must be an http(s) address, got "${url}"`);
  }
  return {
    platformAUrl: url,
    pollMs: integer(env, 'SVC_PLATFORM_A_POLL_MS', 60_000, 10),
    timeoutMs: integer(env, 'SVC_PLATFORM_A_TIMEOUT_MS', 15_000, 100),
    concurrency: integer(env, 'SVC_PLATFORM_A_CONCURRENCY', 4, 1),
    retryBaseMs: integer(env, 'SVC_PLATFORM_A_RETRY_BASE_MS', 60_000, 10),
  };
}
