import path from 'node:path';

/** Everything the server reads from its environment. The README's configuration table mirrors this. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  rateLimitPerMinute: number;
  logLevel: LogLevel;
  /** Validate every JSON response against its contract schema (500 on a mismatch). On in tests. */
  strictResponses: boolean;
  /** Test-only: record every response as a JSON line in this directory (null: off, the default). Not a log. */
  recordResponsesDir: string | null;
  keyUsageFlushMs: number;
  shutdownTimeoutMs: number;
  /** A client must send its request headers within this (else 408 and the connection closes). */
  headersTimeoutMs: number;
  /** ... and its whole request, body included, within this. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  bootstrapAdminEmail: string;
  /** Seconds a session minted by `svc-server session create` stays valid. */
  sessionTtlSeconds: number;
  /** Raw environment, for capabilities that read their own variables. */
  env: NodeJS.ProcessEnv;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export class ConfigError extends Error {}

/** An integer setting of at least `min`; `fallback` when unset. */
export function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new ConfigError(`${name} must be an integer >= ${min}, got "${raw}"`);
  return value;
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

/** Reads the configuration; command-line options override the environment. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: { port?: number; dataDir?: string; host?: string } = {}): Config {
  const level = (env.SVC_LOG_LEVEL ?? 'info') as LogLevel;
  if (!['debug', 'info', 'warn', 'error', 'silent'].includes(level)) throw new ConfigError(`SVC_LOG_LEVEL must be debug, info, warn, error or silent`);
  const headersTimeoutMs = integer(env, 'SVC_HEADERS_TIMEOUT_MS', 15_000, 100);
  const requestTimeoutMs = integer(env, 'SVC_REQUEST_TIMEOUT_MS', 60_000, 100);
  // Node refuses a headers timeout longer than the request timeout; say so in our words.
  if (headersTimeoutMs > requestTimeoutMs) throw new ConfigError(`SVC_HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed SVC_REQUEST_TIMEOUT_MS (${requestTimeoutMs})`);
  return {
    port: overrides.port ?? integer(env, 'PORT', 3100),
    host: overrides.host ?? env.SVC_HOST ?? '127.0.0.1',
    dataDir: path.resolve(overrides.dataDir ?? env.SVC_DATA_DIR ?? './data'),
    rateLimitPerMinute: integer(env, 'SVC_RATE_LIMIT_PER_MINUTE', 600, 1),
    logLevel: level,
    strictResponses: flag(env, 'SVC_STRICT_RESPONSES', false),
    recordResponsesDir: env.SVC_RECORD_RESPONSES ? path.resolve(env.SVC_RECORD_RESPONSES) : null,
    keyUsageFlushMs: integer(env, 'SVC_KEY_USAGE_FLUSH_MS', 5000, 10),
    shutdownTimeoutMs: integer(env, 'SVC_SHUTDOWN_TIMEOUT_MS', 10000, 0),
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: integer(env, 'SVC_KEEP_ALIVE_TIMEOUT_MS', 5000, 100),
    bootstrapAdminEmail: env.SVC_ADMIN_EMAIL ?? 'admin@localhost',
    sessionTtlSeconds: integer(env, 'SVC_SESSION_TTL_SECONDS', 30 * 24 * 3600, 60),
    env,
  };
}
