import ky, { type KyInstance } from 'ky';
import { type Operation, type ResponseOf, buildPath } from '@svc/contract';
import { ConnectionError, RateLimitError, SvcError, errorFromResponse } from './errors.js';

export interface ClientOptions {
  /** API key (`svc_sk_...`); defaults to `SVC_API_KEY`. */
  apiKey?: string | undefined;
  /** Server address; defaults to `SVC_URL`, then `http://127.0.0.1:3100`. */
  baseUrl?: string | undefined;
  /** Retries of a retryable failure (429, 503, network) on idempotent calls. Default 2. */
  maxRetries?: number;
  /** Per-attempt timeout in milliseconds. Default 60000. */
  timeoutMs?: number;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
}

export interface RequestInput {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
  headers?: Record<string, string>;
  /** Retry on 503 and network errors even though the method is POST (the call is safe to repeat). */
  idempotent?: boolean;
}

const IDEMPOTENT_METHODS = new Set(['get', 'put', 'delete']);
const MAX_DELAY_MS = 30_000;

/** Exponential backoff with full jitter; a server's Retry-After wins (capped). */
export function retryDelayMs(attempt: number, retryAfterSeconds: number | undefined): number {
  if (retryAfterSeconds !== undefined) return Math.min(MAX_DELAY_MS, Math.max(0, retryAfterSeconds * 1000));
  const ceiling = Math.min(MAX_DELAY_MS, 500 * 2 ** attempt);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

function searchParams(query: Record<string, unknown> | undefined): URLSearchParams {
  const out = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    for (const v of Array.isArray(value) ? value : [value]) out.append(name, String(v));
  }
  return out;
}

/** Sends contract operations: builds the URL, authenticates, retries, parses the response by its schema. */
export class Transport {
  readonly baseUrl: string;
  private readonly http: KyInstance;
  private readonly maxRetries: number;

  constructor(options: ClientOptions = {}) {
    const apiKey = options.apiKey ?? process.env.SVC_API_KEY;
    this.baseUrl = (options.baseUrl ?? process.env.SVC_URL ?? 'http://127.0.0.1:3100').replace(/\/+$/, '');
    this.maxRetries = options.maxRetries ?? 2;
    this.http = ky.create({
      retry: 0,
      throwHttpErrors: false,
      timeout: options.timeoutMs ?? 60_000,
      headers: { ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}), ...options.headers },
    });
  }

  /** Calls an operation and returns its parsed success body. */
  async request<T extends Operation>(op: T, input: RequestInput = {}): Promise<ResponseOf<T>> {
    const url = `${this.baseUrl}${buildPath(op.path, input.params)}`;
    const retryable = IDEMPOTENT_METHODS.has(op.method) || input.idempotent === true;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await this.http(url, {
          method: op.method.toUpperCase(),
          searchParams: searchParams(input.query),
          ...(input.body !== undefined ? { json: input.body } : {}),
          ...(input.headers ? { headers: input.headers } : {}),
        });
      } catch (err) {
        const failure = new ConnectionError(`could not reach ${this.baseUrl}: ${(err as Error).message}`, err);
        if (retryable && attempt < this.maxRetries) {
          await sleep(retryDelayMs(attempt, undefined));
          continue;
        }
        throw failure;
      }
      if (response.ok) return this.parse(op, response);
      const body = await response.json().catch(() => undefined);
      const error = errorFromResponse(response.status, body, response.headers);
      // A 429 is refused before any work, so any method may retry it; 503 only where repeating is safe.
      const again = error instanceof RateLimitError || (error.status === 503 && retryable);
      if (again && attempt < this.maxRetries) {
        await sleep(retryDelayMs(attempt, error instanceof RateLimitError ? error.retryAfter : parseSeconds(response.headers.get('retry-after'))));
        continue;
      }
      throw error;
    }
  }

  private async parse<T extends Operation>(op: T, response: Response): Promise<ResponseOf<T>> {
    if (op.status === 204 || !op.response) return undefined as ResponseOf<T>;
    const requestId = response.headers.get('x-request-id') ?? undefined;
    let json: unknown;
    try {
      json = await response.json();
    } catch (err) {
      throw new SvcError(`unreadable response from ${op.operationId}: ${(err as Error).message}`, response.status, 'invalid_response', undefined, requestId);
    }
    const parsed = op.response.safeParse(json);
    if (!parsed.success) {
      throw new SvcError(`response of ${op.operationId} does not match the contract: ${parsed.error.message}`, response.status, 'invalid_response', undefined, requestId);
    }
    return parsed.data as ResponseOf<T>;
  }
}

function parseSeconds(value: string | null): number | undefined {
  const n = value === null ? NaN : Number(value);
  return Number.isFinite(n) ? n : undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
