import type { EndReason, MockTool } from '@svc/contract';
import { type CallerBrief, type HeardTurn, nextCallerTurn } from './caller.js';
import { AgentError, type AgentReply, type AgentSession } from './connectors/types.js';
import type { LlmClient } from './llm.js';
import { answerTool } from './mock-tools.js';
import type { CallRecorder } from './recorder.js';

/** Rounds of tool calls the agent may chain before answering one caller message. */
export const MAX_TOOL_ROUNDS = 10;

export interface Conversation {
  llm: LlmClient;
  session: AgentSession;
  brief: CallerBrief;
  mocks: readonly MockTool[];
  maxTurns: number;
  recorder: CallRecorder;
}

/**
 * Plays one simulated call: the caller speaks, the agent answers (its tool
 * calls answered from the mocks, possibly over several rounds), until the
 * caller ends, the agent hangs up, or `maxTurns` caller messages were sent.
 * Every step is recorded before the next one starts.
 */
export async function converse(c: Conversation, signal: AbortSignal): Promise<EndReason> {
  const heard: HeardTurn[] = [];
  for (let turn = 0; turn < c.maxTurns; turn++) {
    const caller = await nextCallerTurn(c.llm, c.brief, heard, signal);
    const text = caller.message.trim();
    if (!text) return 'caller_ended';
    c.recorder.caller(text);
    heard.push({ role: 'caller', text });
    let reply: AgentReply = await c.session.say(text, signal);
    // An agent message's latency is the agent's own time since the previous message, mock delays excluded.
    let latency = reply.latencyMs;
    for (let rounds = 0; reply.toolCalls.length > 0; rounds++) {
      if (rounds >= MAX_TOOL_ROUNDS) throw new AgentError('agent_protocol', `The agent kept calling tools for ${MAX_TOOL_ROUNDS} rounds without answering the caller.`);
      if (reply.reply) {
        c.recorder.agent(reply.reply, latency);
        latency = 0;
      }
      const calls = reply.toolCalls;
      // Tools of one round run side by side, as a tool runtime would; their delays overlap.
      const answers = await Promise.all(calls.map((call) => answerTool(call, c.mocks, signal)));
      c.recorder.tools(calls, answers);
      reply = await c.session.answerTools(
        answers.map((a) => a.result),
        signal,
      );
      latency += reply.latencyMs;
    }
    c.recorder.agent(reply.reply, latency);
    if (reply.reply) heard.push({ role: 'agent', text: reply.reply });
    if (reply.ended) return 'agent_ended';
    if (caller.end_call) return 'caller_ended';
  }
  return 'turn_limit';
}
