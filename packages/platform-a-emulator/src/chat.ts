import type { EmulatorState } from './state.js';
import type { AgentRecord, ChatRule } from './types.js';

interface ChatConversation {
  id: string;
  agentId: string;
  turn: number;
  ended: boolean;
  /** A tool call waiting for its result, and the rule whose reply follows it. */
  awaiting: { ids: string[]; rule: ChatRule } | null;
  messages: Array<{ role: 'user' | 'agent' | 'tool'; text: string }>;
}

export interface ChatInput {
  conversation_id?: string;
  message: string;
  tool_results?: Array<{ tool_call_id: string; output?: unknown; error?: string }>;
}

export type ChatResult =
  | { ok: true; body: { conversation_id: string; reply: string | null; tool_calls: Array<{ id: string; name: string; arguments: Record<string, unknown> }>; ended: boolean } }
  | { ok: false; status: 400 | 404 | 409; code: string; message: string };

const fill = (template: string, values: Record<string, string>) => template.replace(/\{(\w+)\}/g, (all, name: string) => values[name] ?? all);

function fillDeep(value: unknown, values: Record<string, string>): unknown {
  if (typeof value === 'string') return fill(value, values);
  if (Array.isArray(value)) return value.map((v) => fillDeep(v, values));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillDeep(v, values)]));
  return value;
}

function matches(rule: ChatRule, message: string): boolean {
  const text = message.toLowerCase();
  return (Array.isArray(rule.when) ? rule.when : [rule.when]).some((w) => text.includes(w.toLowerCase()));
}

/**
 * `POST /v1/agents/{agent_id}/chat`: deterministic text conversations driven
 * by the agent's `chat` rules, so callers (the runs capability) can be tested
 * against a known behaviour. Chat conversations are not listed in history.
 */
export class ChatEngine {
  private readonly conversations = new Map<string, ChatConversation>();
  private seq = 0;

  constructor(private readonly state: EmulatorState) {}

  /** A chat conversation's messages (admin API). */
  get(id: string): ChatConversation | undefined {
    return this.conversations.get(id);
  }

  reset(): void {
    this.conversations.clear();
    this.seq = 0;
  }

  handle(agent: AgentRecord, input: ChatInput): ChatResult {
    let conversation: ChatConversation;
    if (input.conversation_id === undefined) {
      conversation = { id: `chat_${String(++this.seq).padStart(6, '0')}`, agentId: agent.agent_id, turn: 0, ended: false, awaiting: null, messages: [] };
      this.conversations.set(conversation.id, conversation);
    } else {
      const found = this.conversations.get(input.conversation_id);
      if (!found || found.agentId !== agent.agent_id) return { ok: false, status: 404, code: 'not_found', message: 'No such conversation for this agent.' };
      conversation = found;
    }
    if (conversation.ended) return { ok: false, status: 409, code: 'conversation_ended', message: 'The conversation has ended.' };
    const behaviour = agent.chat ?? {};
    const values = { message: input.message, agent: agent.name, turn: String(conversation.turn + 1) };
    if (input.message) conversation.messages.push({ role: 'user', text: input.message });

    if (conversation.awaiting) {
      const results = input.tool_results ?? [];
      const missing = conversation.awaiting.ids.filter((id) => !results.some((r) => r.tool_call_id === id));
      if (missing.length) return { ok: false, status: 400, code: 'tool_results_required', message: `Send tool_results for ${missing.join(', ')}.` };
      const output = results.map((r) => (r.error !== undefined ? `error: ${r.error}` : typeof r.output === 'string' ? r.output : JSON.stringify(r.output ?? null))).join('; ');
      for (const r of results) conversation.messages.push({ role: 'tool', text: r.error ?? JSON.stringify(r.output ?? null) });
      const rule = conversation.awaiting.rule;
      conversation.awaiting = null;
      return this.reply(conversation, fill(rule.reply ?? 'Done: {tool_output}', { ...values, tool_output: output }), Boolean(rule.end));
    }

    const endPhrases = behaviour.end_phrases ?? ['bye', 'goodbye'];
    if (endPhrases.some((p) => input.message.toLowerCase().includes(p.toLowerCase()))) {
      return this.reply(conversation, fill(behaviour.end_reply ?? 'Goodbye!', values), true);
    }
    const rule = (behaviour.rules ?? []).find((r) => matches(r, input.message));
    if (rule?.tool_call) {
      conversation.turn++;
      const id = `call_${conversation.id.slice(5)}_${conversation.turn}`;
      conversation.awaiting = { ids: [id], rule };
      const args = fillDeep(rule.tool_call.arguments ?? {}, values) as Record<string, unknown>;
      return { ok: true, body: { conversation_id: conversation.id, reply: null, tool_calls: [{ id, name: rule.tool_call.name, arguments: args }], ended: false } };
    }
    if (rule) return this.reply(conversation, fill(rule.reply ?? '', values), Boolean(rule.end));
    return this.reply(conversation, fill(behaviour.fallback ?? 'You said: {message}', values), false);
  }

  private reply(conversation: ChatConversation, text: string, ended: boolean): ChatResult {
    conversation.turn++;
    conversation.ended = ended;
    conversation.messages.push({ role: 'agent', text });
    return { ok: true, body: { conversation_id: conversation.id, reply: text, tool_calls: [], ended } };
  }
}
