import type { ConversationDetail, TraceSpanNode } from '@svc/contract';

/** Milliseconds for people: `850 ms`, `12.4 s`, or `-`. */
export function ms(value: number | null | undefined): string {
  if (value === null || value === undefined) return '-';
  return value < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(1)} s`;
}

const clip = (text: string, width: number) => (text.length > width ? `${text.slice(0, width - 1)}…` : text);

/** A conversation as a readable transcript: one line per turn with its latencies, then the tool calls. */
export function renderTranscript(c: ConversationDetail): string {
  const lines = [
    `${c.id}  ${c.source}  ${c.external_id}`,
    `started ${c.started_at}  duration ${ms(c.duration_ms)}  ended ${c.termination_reason ?? 'in progress'}${c.trace_id ? `  trace ${c.trace_id}` : ''}`,
    `reply latency: p50 ${ms(c.latency.p50_ms)}  p95 ${ms(c.latency.p95_ms)}  max ${ms(c.latency.max_ms)}  (${c.latency.agent_turns} agent turns)`,
    '',
  ];
  for (const t of c.turns) {
    const at = t.offset_ms === null ? '' : `+${(t.offset_ms / 1000).toFixed(2)}s`;
    const figures = [
      t.latency_ms !== null ? `latency ${ms(t.latency_ms)}` : '',
      t.llm_ttft_ms !== null ? `llm ttft ${ms(t.llm_ttft_ms)}` : '',
      t.tts_ttfb_ms !== null ? `tts ttfb ${ms(t.tts_ttfb_ms)}` : '',
      t.interrupted ? 'interrupted' : '',
    ].filter(Boolean);
    const said = t.role === 'tool' ? `${t.tool_name ?? 'tool'} (${ms(t.duration_ms)})` : (t.text ?? '');
    lines.push(`${at.padStart(9)}  ${t.role.padEnd(5)}  ${clip(said, 70)}${figures.length ? `   [${figures.join(' · ')}]` : ''}`);
  }
  if (c.tool_calls.length) {
    lines.push('', 'tool calls:');
    for (const call of c.tool_calls) {
      const outcome = call.error ? `error: ${call.error}` : JSON.stringify(call.output);
      lines.push(`  ${call.name} ${JSON.stringify(call.arguments)} -> ${clip(outcome, 80)} (${ms(call.duration_ms)})`);
    }
  }
  return lines.join('\n');
}

/** A span tree, indented by depth, with each span's offset from the trace start and its duration. */
export function renderSpanTree(roots: readonly TraceSpanNode[], traceStartNs: bigint): string {
  const lines: string[] = [];
  const walk = (node: TraceSpanNode, depth: number) => {
    const offset = Number((BigInt(node.start_time_unix_nano) - traceStartNs) / 1000n) / 1000;
    const status = node.status.code === 'error' ? `  ERROR${node.status.message ? ` ${node.status.message}` : ''}` : '';
    lines.push(`${'  '.repeat(depth)}${node.name}  ${ms(node.duration_ms)}  (+${ms(offset)})${status}`);
    for (const child of node.children) walk(child, depth + 1);
  };
  for (const root of roots) walk(root, 0);
  return lines.join('\n');
}
