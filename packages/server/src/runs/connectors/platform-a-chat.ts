import { z } from 'zod';
import { pathSegment } from '../../platform-a/client.js';
import { postJson } from '../http-client.js';
import { agentFailure } from './http-chat.js';
import { AgentError, type AgentReply, type AgentSession, type ToolResult } from './types.js';

export interface PlatformATarget {
  baseUrl: string;
  apiKey: string;
  platformAgentId: string;
  timeoutMs: number;
}

const ChatResponse = z.object({
  conversation_id: z.string().min(1),
  reply: z.string().nullable(),
  tool_calls: z.array(z.object({ id: z.string().min(1), name: z.string().min(1), arguments: z.record(z.string(), z.unknown()).default({}) })).default([]),
  ended: z.boolean(),
});

/**
 * The platform keeps the conversation, so a request that may have been
 * processed is never repeated: only 429 and 503 (refused before any work) and
 * connection failures are retried.
 */
const retryable = (status: number) => status === 0 || status === 429 || status === 503;

/**
 * A conversation with a platform_a agent through `POST
 * /v1/agents/{agent_id}/chat` (`x-api-key`): the first message starts it,
 * tool calls are answered with `tool_results` in the next request.
 */
export class PlatformAChatSession implements AgentSession {
  private conversationId: string | undefined;

  constructor(private readonly target: PlatformATarget) {}

  say(text: string, signal: AbortSignal): Promise<AgentReply> {
    return this.send({ message: text }, signal);
  }

  answerTools(results: readonly ToolResult[], signal: AbortSignal): Promise<AgentReply> {
    const toolResults = results.map((r) => ({ tool_call_id: r.toolCallId, ...(r.isError ? { error: r.error ?? r.content } : { output: r.output }) }));
    return this.send({ message: '', tool_results: toolResults }, signal);
  }

  private async send(body: Record<string, unknown>, signal: AbortSignal): Promise<AgentReply> {
    const url = `${this.target.baseUrl}/v1/agents/${pathSegment(this.target.platformAgentId)}/chat`;
    const answer = await postJson(url, { ...(this.conversationId ? { conversation_id: this.conversationId } : {}), ...body }, {
      headers: { 'x-api-key': this.target.apiKey },
      timeoutMs: this.target.timeoutMs,
      retries: 2,
      retryable,
      signal,
    }).catch((err: unknown) => agentFailure(err, [this.target.apiKey]));
    const parsed = ChatResponse.safeParse(answer.body);
    if (!parsed.success) throw new AgentError('agent_protocol', 'The platform answered the chat request with an unexpected body.');
    this.conversationId = parsed.data.conversation_id;
    return { reply: parsed.data.reply, toolCalls: parsed.data.tool_calls, ended: parsed.data.ended, latencyMs: answer.latencyMs };
  }
}
