import type { ChatEngine } from './chat.js';
import { type EmulatorRequest, type RouteEntry, json, platformError, route } from './http.js';
import { LIST_WINDOW_SECS, type EmulatorState } from './state.js';
import type { ConversationSeed, Fault, GenerateSpec, SeedDocument } from './types.js';

const object = (req: EmulatorRequest): Record<string, unknown> => (req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {});
const notFound = (what: string) => platformError(404, 'not_found', `No such ${what}.`);

/**
 * The emulator's own admin API under `/_admin` (no credential; bind it to
 * loopback): seed and change data, inject faults, read the request log.
 * Documented in the package README.
 */
export function adminRoutes(state: EmulatorState, chat: ChatEngine): RouteEntry[] {
  return [
    route('GET', '/_admin/state', () =>
      json({
        keys: [...state.keys.values()],
        agents: [...state.agents.values()],
        conversation_count: state.conversations.size,
        faults: state.faults,
      }),
    ),
    route('POST', '/_admin/reset', (req) => {
      state.load(object(req) as SeedDocument);
      chat.reset();
      return json({ conversation_count: state.conversations.size });
    }),
    route('POST', '/_admin/keys', (req) => json(state.addKey(object(req) as never), 201)),
    route('PATCH', '/_admin/keys/{key}', (req) => {
      const key = state.keys.get(req.params[0]!);
      if (!key) return notFound('key');
      const patch = object(req);
      if (patch.permissions !== undefined) state.addKey({ key: key.key, label: key.label, permissions: patch.permissions as string[] });
      return json(state.keys.get(key.key));
    }),
    route('DELETE', '/_admin/keys/{key}', (req) => (state.keys.delete(req.params[0]!) ? { status: 204 } : notFound('key'))),
    route('POST', '/_admin/agents', (req) => json(state.addAgent(object(req) as never), 201)),
    route('PATCH', '/_admin/agents/{agent_id}', (req) => {
      const agent = state.agents.get(req.params[0]!);
      if (!agent) return notFound('agent');
      return json(state.addAgent({ ...agent, ...object(req), agent_id: agent.agent_id } as never));
    }),
    route('POST', '/_admin/conversations', (req) => {
      const body = object(req);
      const seeds = (Array.isArray(body.conversations) ? body.conversations : [body]) as ConversationSeed[];
      const created = seeds.map((s) => state.addConversation(s).conversation_id);
      return json({ created }, 201);
    }),
    route('PATCH', '/_admin/conversations/{conversation_id}', (req) => {
      const updated = state.updateConversation(req.params[0]!, object(req) as Partial<ConversationSeed>);
      return updated ? json(updated) : notFound('conversation');
    }),
    route('GET', '/_admin/conversations', (req) => {
      const floor = req.query.within_window === 'true' ? Math.floor(Date.now() / 1000) - LIST_WINDOW_SECS : -Infinity;
      const items = state
        .allNewestFirst()
        .filter((c) => (!req.query.agent_id || c.agent_id === req.query.agent_id) && (!req.query.status || c.status === req.query.status) && c.start_time_unix >= floor)
        .map((c) => ({ conversation_id: c.conversation_id, agent_id: c.agent_id, status: c.status, start_time_unix: c.start_time_unix }));
      return json({ conversations: items });
    }),
    route('POST', '/_admin/generate', (req) => json({ created: state.generate(object(req) as unknown as GenerateSpec) }, 201)),
    route('GET', '/_admin/faults', () => json({ faults: state.faults })),
    route('POST', '/_admin/faults', (req) => json(state.addFault(object(req) as Omit<Fault, 'id'>), 201)),
    route('DELETE', '/_admin/faults', () => {
      state.faults = [];
      return { status: 204 };
    }),
    route('DELETE', '/_admin/faults/{id}', (req) => {
      const before = state.faults.length;
      state.faults = state.faults.filter((f) => f.id !== req.params[0]);
      return state.faults.length < before ? { status: 204 } : notFound('fault');
    }),
    route('GET', '/_admin/requests', (req) => {
      const after = Number(req.query.after_seq ?? 0) || 0;
      return json({ requests: state.requests(after), last_seq: state.lastSeq });
    }),
    route('DELETE', '/_admin/requests', () => {
      state.clearRequests();
      return { status: 204 };
    }),
    route('GET', '/_admin/chats/{conversation_id}', (req) => {
      const found = chat.get(req.params[0]!);
      return found ? json(found) : notFound('chat conversation');
    }),
  ];
}
