import type { MockTool, ToolOutcome } from '@svc/contract';
import type { AgentToolCall, ToolResult } from './connectors/types.js';
import { sleep } from './http-client.js';

/** A tool call answered: what the agent receives and how it was decided. */
export interface AnsweredTool {
  result: ToolResult;
  outcome: ToolOutcome;
  delayMs: number;
  requestedAt: string;
  answeredAt: string;
}

/** The error an agent receives for a tool no mock of the test answers. */
export const unmatchedMessage = (name: string) => `svc: no mock tool named "${name}" is defined in this test, so the call was not answered`;

/**
 * Answers a tool call from the test's mock tools, matched by tool name: after
 * `delay_ms`, the mock's `answer` or its `error`. A call no mock matches gets
 * an error result saying so (the run flags it; it is never silently ignored).
 */
export async function answerTool(call: AgentToolCall, mocks: readonly MockTool[], signal: AbortSignal): Promise<AnsweredTool> {
  const requestedAt = new Date().toISOString();
  const mock = mocks.find((m) => m.tool === call.name);
  const delayMs = mock?.delay_ms ?? 0;
  if (delayMs > 0) await sleep(delayMs, signal);
  const answeredAt = new Date().toISOString();
  const base = { toolCallId: call.id, name: call.name };
  if (!mock) {
    const error = unmatchedMessage(call.name);
    return { outcome: 'unmatched', delayMs, requestedAt, answeredAt, result: { ...base, content: JSON.stringify({ error }), isError: true, output: undefined, error } };
  }
  if (mock.error !== undefined) {
    return { outcome: 'error', delayMs, requestedAt, answeredAt, result: { ...base, content: JSON.stringify({ error: mock.error }), isError: true, output: undefined, error: mock.error } };
  }
  const answer = mock.answer ?? null;
  return { outcome: 'answer', delayMs, requestedAt, answeredAt, result: { ...base, content: JSON.stringify(answer), isError: false, output: answer, error: undefined } };
}

/** Nearest-rank percentile of a non-empty list. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
