import type { ConversationLatency, ConversationTurn } from '@svc/contract';

/** The value at quantile `q` (0..1) of sorted numbers, by nearest rank. */
export function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1]!;
}

/** Aggregate agent-reply latency over the agent turns that measured one. */
export function summarizeLatency(turns: readonly ConversationTurn[]): ConversationLatency {
  const values = turns
    .filter((t) => t.role === 'agent' && t.latency_ms !== null)
    .map((t) => t.latency_ms as number)
    .sort((a, b) => a - b);
  return {
    agent_turns: values.length,
    p50_ms: quantile(values, 0.5),
    p95_ms: quantile(values, 0.95),
    max_ms: values.length ? values[values.length - 1]! : null,
  };
}
