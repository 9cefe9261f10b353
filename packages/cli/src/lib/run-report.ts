import type { RunEvent, RunObject } from '@svc/contract';
import { callLabel } from './junit.js';
import { renderTable } from './table.js';

/** The result table of a run and, below it, what failed and why. */
export function renderRun(run: RunObject): string {
  const s = run.summary;
  const lines = [
    `Run ${run.id}: ${run.status.toUpperCase()}  (${s.calls.passed} passed, ${s.calls.failed} failed, ${s.calls.error} error, ${s.calls.canceled} canceled of ${s.calls.total} calls)`,
    renderTable(
      ['test', 'version', 'caller', 'status', 'behaviors', 'end', 'p50 ms', 'tools'],
      run.results.map((c) => [
        c.test_name,
        `v${c.version}${c.superseded ? ' (superseded)' : ''}`,
        callLabel(c),
        c.status,
        `${c.behaviors.filter((b) => b.verdict === 'passed').length}/${c.behaviors.length}`,
        c.end_reason,
        c.metrics.agent_latency_ms?.p50,
        `${c.metrics.tool_calls}${c.unmatched_tools.length ? ` (${c.unmatched_tools.length} unmatched)` : ''}`,
      ]),
    ),
  ];
  for (const c of run.results) {
    const bad = c.behaviors.filter((b) => b.verdict !== 'passed');
    if (c.status === 'passed' || (bad.length === 0 && !c.problem && c.unmatched_tools.length === 0)) continue;
    lines.push('', `${c.test_name} — ${callLabel(c)}: ${c.status}${c.problem ? ` (${c.problem.code}: ${c.problem.message})` : ''}`);
    for (const b of bad) lines.push(`  ✗ ${b.behavior}`, `    ${b.rationale}${b.turns.length ? ` (turns ${b.turns.join(', ')})` : ''}`);
    if (c.unmatched_tools.length) lines.push(`  ! no mock for tool(s): ${c.unmatched_tools.join(', ')}`);
  }
  return lines.join('\n');
}

/** One line per event, for `svc runs events`. */
export function renderEvent(e: RunEvent): string {
  const d = e.data as Record<string, unknown>;
  const detail =
    e.type === 'turn'
      ? `${d.role}: ${d.text ?? '(tool calls)'}`
      : e.type === 'tool_call'
        ? `${d.name} -> ${d.outcome}${d.delay_ms ? ` after ${d.delay_ms} ms` : ''}`
        : e.type === 'grade'
          ? `${d.verdict}: ${d.behavior} — ${d.rationale}`
          : e.type === 'call.finished' || e.type === 'run.finished'
            ? String(d.status)
            : '';
  const call = typeof d.call_id === 'string' ? ` ${d.call_id}` : '';
  return `${String(e.seq).padStart(5)} ${e.at} ${e.type}${call}${detail ? `  ${detail}` : ''}`;
}
