import { type HttpChatMessage, HttpChatReply } from '@svc/contract';
import { UpstreamError, postJson } from '../http-client.js';
import { AgentError, type AgentReply, type AgentSession, type ToolResult } from './types.js';

export interface HttpChatTarget {
  url: string;
  headers: Record<string, string>;
  bearerToken: string | undefined;
  timeoutMs: number;
}

/** 429, 5xx and network failures are retried: every request carries the whole conversation, so repeating one is safe. */
const retryable = (status: number) => status === 0 || status === 429 || status >= 500;

/**
 * Maps a transport failure of the agent to the call's problem. The message
 * quotes the agent's answer, so the connection's secrets are cut out of it in
 * case the agent echoed them.
 */
export function agentFailure(err: unknown, secrets: readonly (string | undefined)[]): never {
  if (err instanceof UpstreamError) {
    const message = secrets.reduce<string>((text, secret) => (secret ? text.replaceAll(secret, '[redacted]') : text), `The agent ${err.message}.`);
    throw new AgentError(err.status === 0 ? 'agent_unreachable' : 'agent_error', message);
  }
  throw err;
}

/**
 * A conversation over `http_chat`: each request POSTs `{conversation_id,
 * messages, tools}` with the whole conversation so far; the reply is
 * `{reply, tool_calls?, end_call?}`.
 */
export class HttpChatSession implements AgentSession {
  private readonly messages: HttpChatMessage[] = [];

  constructor(
    private readonly target: HttpChatTarget,
    private readonly conversationId: string,
    private readonly tools: readonly string[],
  ) {}

  say(text: string, signal: AbortSignal): Promise<AgentReply> {
    this.messages.push({ role: 'user', content: text });
    return this.send(signal);
  }

  answerTools(results: readonly ToolResult[], signal: AbortSignal): Promise<AgentReply> {
    for (const r of results) this.messages.push({ role: 'tool', tool_call_id: r.toolCallId, name: r.name, content: r.content, is_error: r.isError });
    return this.send(signal);
  }

  private async send(signal: AbortSignal): Promise<AgentReply> {
    const headers = { ...this.target.headers, ...(this.target.bearerToken ? { authorization: `Bearer ${this.target.bearerToken}` } : {}) };
    const answer = await postJson(
      this.target.url,
      { conversation_id: this.conversationId, messages: this.messages, tools: this.tools.map((name) => ({ name })) },
      { headers, timeoutMs: this.target.timeoutMs, retries: 2, retryable, signal },
    ).catch((err: unknown) => agentFailure(err, [this.target.bearerToken]));
    const parsed = HttpChatReply.safeParse(answer.body);
    if (!parsed.success) {
      throw new AgentError('agent_protocol', `The agent's reply is not {reply, tool_calls?, end_call?}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'reply'}: ${i.message}`).join('; ')}`);
    }
    const reply: AgentReply = { reply: parsed.data.reply ?? null, toolCalls: parsed.data.tool_calls ?? [], ended: parsed.data.end_call ?? false, latencyMs: answer.latencyMs };
    this.messages.push({ role: 'assistant', content: reply.reply, ...(reply.toolCalls.length ? { tool_calls: reply.toolCalls } : {}) });
    return reply;
  }
}
