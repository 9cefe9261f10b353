import type { z } from 'zod';
import { AgentPage, ConversationPage, PlatformAgent, PlatformConversation } from './schemas.js';

/** Every way a platform call can end, typed so callers map each to health, an HTTP refusal or a failure. */
export type PlatformOutcome<T> =
  | { ok: true; value: T }
  | { ok: false; kind: 'invalid_key'; status: 401; message: string }
  | { ok: false; kind: 'missing_permission'; status: 403; permission: string | null; message: string }
  | { ok: false; kind: 'rate_limited'; status: 429; retryAfterSecs: number; message: string }
  | { ok: false; kind: 'not_found'; status: 404; message: string }
  | { ok: false; kind: 'unavailable'; status: number | null; message: string }
  | { ok: false; kind: 'bad_response'; status: number; message: string }
  | { ok: false; kind: 'aborted'; status: null; message: string };

export type PlatformFailure = Exclude<PlatformOutcome<never>, { ok: true }>;

export interface PlatformAClientOptions {
  baseUrl: string;
  /** Per-request timeout; a timeout counts as the platform being unavailable. */
  timeoutMs: number;
}

/** Used when a 429 carries no usable `Retry-After`. */
const DEFAULT_RETRY_AFTER_SECS = 5;
const MAX_RETRY_AFTER_SECS = 3600;

function retryAfter(header: string | null): number {
  if (header === null) return DEFAULT_RETRY_AFTER_SECS;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.min(MAX_RETRY_AFTER_SECS, Math.max(1, Math.ceil(seconds)));
  const date = Date.parse(header);
  if (Number.isFinite(date)) return Math.min(MAX_RETRY_AFTER_SECS, Math.max(1, Math.ceil((date - Date.now()) / 1000)));
  return DEFAULT_RETRY_AFTER_SECS;
}

/** The platform's `{"error": {"code", "permission"?}}`, when the body has one. */
async function errorOf(response: Response): Promise<{ code?: string; permission?: string }> {
  try {
    const body = (await response.json()) as { error?: { code?: unknown; permission?: unknown } };
    return {
      ...(typeof body.error?.code === 'string' ? { code: body.error.code } : {}),
      ...(typeof body.error?.permission === 'string' ? { permission: body.error.permission } : {}),
    };
  } catch {
    return {};
  }
}

/**
 * An id as one URL path segment. Lone surrogates (valid in a JSON string, not
 * in Unicode text) become U+FFFD first: encodeURIComponent throws on them,
 * and no platform id contains one, so the platform answers "not found".
 */
export function pathSegment(id: string): string {
  return encodeURIComponent(id.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));
}

/**
 * An HTTP client for the platform_a API (platform-a.md). It never throws for
 * a platform answer: every call resolves to a `PlatformOutcome`. The key is
 * sent only in the `x-api-key` header and appears in no message.
 */
export class PlatformAClient {
  private readonly baseUrl: string;

  constructor(private readonly options: PlatformAClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  /** One page of the key's agents. */
  listAgents(apiKey: string, cursor: string | undefined, signal?: AbortSignal) {
    return this.get(apiKey, '/v1/agents', { cursor, page_size: '100' }, AgentPage, signal);
  }

  getAgent(apiKey: string, agentId: string, signal?: AbortSignal) {
    return this.get(apiKey, `/v1/agents/${pathSegment(agentId)}`, {}, PlatformAgent, signal);
  }

  /** One page of an agent's conversations, newest first, started at or after `sinceUnix` (the platform lists 30 days at most). */
  listConversations(apiKey: string, q: { agentId: string; cursor?: string | undefined; sinceUnix?: number | undefined; pageSize?: number }, signal?: AbortSignal) {
    const query = { agent_id: q.agentId, cursor: q.cursor, page_size: String(q.pageSize ?? 100), since_unix: q.sinceUnix === undefined ? undefined : String(q.sinceUnix) };
    return this.get(apiKey, '/v1/conversations', query, ConversationPage, signal);
  }

  /** One conversation by id, of any age. */
  getConversation(apiKey: string, conversationId: string, signal?: AbortSignal) {
    return this.get(apiKey, `/v1/conversations/${pathSegment(conversationId)}`, {}, PlatformConversation, signal);
  }

  private async get<S extends z.ZodType>(apiKey: string, path: string, query: Record<string, string | undefined>, schema: S, signal?: AbortSignal): Promise<PlatformOutcome<z.output<S>>> {
    const url = new URL(this.baseUrl + path);
    for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, value);
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { 'x-api-key': apiKey, accept: 'application/json' },
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (err) {
      if (signal?.aborted) return { ok: false, kind: 'aborted', status: null, message: 'The call was cancelled.' };
      const why = timeout.aborted ? `no answer within ${this.options.timeoutMs} ms` : ((err as { cause?: { code?: string } }).cause?.code ?? 'connection failed');
      return { ok: false, kind: 'unavailable', status: null, message: `The platform is unreachable (${why}).` };
    }
    const status = response.status;
    if (status === 200) {
      let parsed: z.ZodSafeParseResult<z.output<S>>;
      try {
        parsed = schema.safeParse(await response.json());
      } catch {
        return { ok: false, kind: 'bad_response', status, message: 'The platform answered with a body that is not JSON.' };
      }
      if (!parsed.success) return { ok: false, kind: 'bad_response', status, message: `The platform's answer has an unexpected shape (${parsed.error.issues[0]?.path.join('.') || 'body'}).` };
      return { ok: true, value: parsed.data };
    }
    if (status === 401) {
      await response.body?.cancel();
      return { ok: false, kind: 'invalid_key', status, message: 'The platform does not accept the key.' };
    }
    if (status === 403) {
      const error = await errorOf(response);
      return { ok: false, kind: 'missing_permission', status, permission: error.permission ?? null, message: `The key lacks a permission${error.permission ? ` (${error.permission})` : ''}.` };
    }
    if (status === 429) {
      const secs = retryAfter(response.headers.get('retry-after'));
      await response.body?.cancel();
      return { ok: false, kind: 'rate_limited', status, retryAfterSecs: secs, message: `The platform is rate limiting this key; retry after ${secs} s.` };
    }
    await response.body?.cancel();
    if (status === 404) return { ok: false, kind: 'not_found', status, message: 'The platform has no such resource.' };
    if (status >= 500) return { ok: false, kind: 'unavailable', status, message: `The platform failed temporarily (HTTP ${status}).` };
    return { ok: false, kind: 'bad_response', status, message: `The platform answered HTTP ${status}.` };
  }
}
