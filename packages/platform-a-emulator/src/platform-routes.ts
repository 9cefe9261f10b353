import type { ChatEngine, ChatInput } from './chat.js';
import { type EmulatorRequest, type EmulatorResponse, type RouteEntry, intParam, json, platformError, route } from './http.js';
import type { EmulatorState } from './state.js';
import type { AgentRecord, ConversationRecord, KeyRecord, Permission } from './types.js';

/** The key of a request, or the platform's refusal (401 unknown key, 403 missing permission). */
export function authorize(state: EmulatorState, req: EmulatorRequest, anyOf: Permission[]): KeyRecord | EmulatorResponse {
  const presented = req.headers['x-api-key'];
  const key = typeof presented === 'string' ? state.keys.get(presented) : undefined;
  if (!key) return platformError(401, 'invalid_api_key', 'The API key is not valid.');
  if (!anyOf.some((p) => key.permissions.includes(p))) {
    return platformError(403, 'missing_permission', `This key lacks the ${anyOf.join(' or ')} permission.`, { permission: anyOf[0] });
  }
  return key;
}

const isRefusal = (v: KeyRecord | EmulatorResponse): v is EmulatorResponse => 'status' in v;

function encodeCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function decodeCursor<T>(cursor: string | undefined, check: (v: unknown) => v is T): T | undefined | null {
  if (cursor === undefined || cursor === '') return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return check(value) ? value : null;
  } catch {
    return null;
  }
}

const agentObject = (a: AgentRecord) => ({ agent_id: a.agent_id, name: a.name, modality: a.modality, created_at_unix: a.created_at_unix });
const summary = (c: ConversationRecord) => ({
  conversation_id: c.conversation_id,
  agent_id: c.agent_id,
  start_time_unix: c.start_time_unix,
  duration_secs: c.duration_secs,
  status: c.status,
});

/** The conversation as its detail read shows it; an injected incomplete read shows `processing` without a transcript. */
function detail(c: ConversationRecord): Record<string, unknown> {
  const base = { conversation_id: c.conversation_id, agent_id: c.agent_id, start_time_unix: c.start_time_unix, metadata: c.metadata };
  if (c.incomplete_reads > 0) {
    c.incomplete_reads--;
    return { ...base, status: 'processing', duration_secs: c.duration_secs, termination_reason: null };
  }
  return {
    ...base,
    status: c.status,
    duration_secs: c.duration_secs,
    termination_reason: c.termination_reason,
    ...(c.transcript ? { transcript: c.transcript } : {}),
  };
}

const badRequest = (message: string) => platformError(400, 'invalid_request', message);

/** The platform API of platform-a.md: agents, conversations and chat. */
export function platformRoutes(state: EmulatorState, chat: ChatEngine): RouteEntry[] {
  return [
    route('GET', '/v1/agents', (req) => {
      const key = authorize(state, req, ['agents_read']);
      if (isRefusal(key)) return key;
      const pageSize = intParam(req.query.page_size, 30, 1, 100);
      const offset = decodeCursor(req.query.cursor, (v): v is number => Number.isInteger(v) && (v as number) >= 0);
      if (pageSize == null || offset === null) return badRequest('page_size is 1..100 and cursor must come from a previous page.');
      const all = [...state.agents.values()].sort((a, b) => (a.agent_id < b.agent_id ? -1 : 1));
      const start = offset ?? 0;
      const page = all.slice(start, start + pageSize);
      const next = start + pageSize < all.length ? encodeCursor(start + pageSize) : null;
      return json({ agents: page.map(agentObject), next_cursor: next });
    }),
    route('GET', '/v1/agents/{agent_id}', (req) => {
      const key = authorize(state, req, ['agents_read']);
      if (isRefusal(key)) return key;
      const agent = state.agents.get(req.params[0]!);
      return agent ? json(agentObject(agent)) : platformError(404, 'not_found', 'No such agent.');
    }),
    route('POST', '/v1/agents/{agent_id}/chat', (req) => {
      const key = authorize(state, req, ['agents_read']);
      if (isRefusal(key)) return key;
      const agent = state.agents.get(req.params[0]!);
      if (!agent) return platformError(404, 'not_found', 'No such agent.');
      const body = req.body as ChatInput | undefined;
      if (!body || typeof body.message !== 'string' || (body.conversation_id !== undefined && typeof body.conversation_id !== 'string')) {
        return badRequest('The body is {"conversation_id"?: string, "message": string, "tool_results"?: [...]}.');
      }
      if (body.tool_results !== undefined && (!Array.isArray(body.tool_results) || body.tool_results.some((r) => typeof r?.tool_call_id !== 'string'))) {
        return badRequest('tool_results is an array of {tool_call_id, output?, error?}.');
      }
      const result = chat.handle(agent, body);
      return result.ok ? json(result.body) : platformError(result.status, result.code, result.message);
    }),
    route('GET', '/v1/conversations', (req) => {
      const key = authorize(state, req, ['history_read', 'monitor']);
      if (isRefusal(key)) return key;
      const pageSize = intParam(req.query.page_size, 30, 1, 100);
      const since = intParam(req.query.since_unix, undefined, 0, Number.MAX_SAFE_INTEGER);
      const after = decodeCursor(req.query.cursor, (v): v is [number, string] => Array.isArray(v) && typeof v[0] === 'number' && typeof v[1] === 'string');
      if (pageSize == null || since === null || after === null) return badRequest('page_size is 1..100, since_unix a unix time, and cursor must come from a previous page.');
      let items = state.listable(req.query.agent_id || undefined, since);
      if (after) {
        const [t, id] = after;
        items = items.filter((c) => c.start_time_unix < t || (c.start_time_unix === t && c.conversation_id < id));
      }
      const page = items.slice(0, pageSize);
      const last = page[page.length - 1];
      const next = items.length > pageSize && last ? encodeCursor([last.start_time_unix, last.conversation_id]) : null;
      return json({ conversations: page.map(summary), next_cursor: next });
    }),
    route('GET', '/v1/conversations/{conversation_id}', (req) => {
      const key = authorize(state, req, ['history_read', 'monitor']);
      if (isRefusal(key)) return key;
      const conversation = state.conversations.get(req.params[0]!);
      return conversation ? json(detail(conversation)) : platformError(404, 'not_found', 'No such conversation.');
    }),
  ];
}
