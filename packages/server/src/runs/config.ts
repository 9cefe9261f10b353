import { ConfigError, integer } from '../config.js';

/** Where the simulated caller and the judge come from: any OpenAI-compatible chat-completions server. */
export interface LlmConfig {
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
}

/** The runs settings read from the environment (README, "Configuration"). */
export interface RunsConfig {
  /** Null when `SVC_LLM_BASE_URL` or `SVC_LLM_MODEL` is unset: run creation is then refused with 503. */
  llm: LlmConfig | null;
  /** Calls executing at once per organization. */
  concurrency: number;
  /** Caller messages after which a call ends with `turn_limit`. */
  maxTurns: number;
  /** Per request to the agent under test. */
  agentTimeoutMs: number;
  /** Where `platform_a_chat_api` connections reach the platform. */
  platformAUrl: string;
}

/** The variables a configured model endpoint needs, as the 503 names them. */
export const LLM_VARIABLES = ['SVC_LLM_BASE_URL', 'SVC_LLM_MODEL', 'SVC_LLM_API_KEY'] as const;

function httpUrl(env: NodeJS.ProcessEnv, name: string, fallback: string | undefined): string | undefined {
  const raw = env[name] || fallback;
  if (raw === undefined) return undefined;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw new ConfigError(`${name} must be an http(s) address, got "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
}

/** Reads `SVC_LLM_*`, `SVC_RUN_*` and `SVC_PLATFORM_A_URL`. */
export function loadRunsConfig(env: NodeJS.ProcessEnv): RunsConfig {
  const baseUrl = httpUrl(env, 'SVC_LLM_BASE_URL', undefined);
  const model = env.SVC_LLM_MODEL?.trim();
  return {
    llm: baseUrl && model ? { baseUrl, model, apiKey: env.SVC_LLM_API_KEY || undefined, timeoutMs: integer(env, 'SVC_LLM_TIMEOUT_MS', 60_000, 100) } : null,
    concurrency: integer(env, 'SVC_RUN_CONCURRENCY', 4, 1),
    maxTurns: integer(env, 'SVC_RUN_MAX_TURNS', 20, 1),
    agentTimeoutMs: integer(env, 'SVC_RUN_AGENT_TIMEOUT_MS', 30_000, 100),
    platformAUrl: httpUrl(env, 'SVC_PLATFORM_A_URL', 'http://127.0.0.1:3200')!,
  };
}
