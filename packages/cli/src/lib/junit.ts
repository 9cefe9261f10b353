import type { RunCallResult, RunObject } from '@svc/contract';

const escape = (s: string) =>
  s
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

const seconds = (ms: number | null) => ((ms ?? 0) / 1000).toFixed(3);

/** The test case name of a call: persona and repetition. */
export const callLabel = (c: RunCallResult) => `${c.persona_name} #${c.repetition}`;

function failedBehaviors(c: RunCallResult): string {
  return c.behaviors
    .filter((b) => b.verdict !== 'passed')
    .map((b) => `- [${b.verdict}] ${b.behavior}\n  ${b.rationale}${b.turns.length ? ` (turns ${b.turns.join(', ')})` : ''}`)
    .join('\n');
}

function testCase(run: RunObject, c: RunCallResult): string {
  const open = `    <testcase classname="${escape(`svc.${c.test_name}`)}" name="${escape(callLabel(c))}" time="${seconds(c.metrics.duration_ms)}">`;
  const props = `      <system-out>${escape(`run ${run.id} call ${c.id}, version ${c.test_version_id}${c.superseded ? ' (superseded)' : ''}, end ${c.end_reason ?? '-'}${c.unmatched_tools.length ? `, unmatched tools: ${c.unmatched_tools.join(', ')}` : ''}`)}</system-out>`;
  let body = '';
  if (c.status === 'failed') {
    const failed = c.behaviors.filter((b) => b.verdict === 'failed');
    body = `      <failure message="${escape(`${failed.length} of ${c.behaviors.length} behaviors failed: ${failed.map((b) => b.behavior).join('; ')}`)}" type="behavior">${escape(failedBehaviors(c))}</failure>`;
  } else if (c.status === 'error') {
    body = `      <error message="${escape(c.problem?.message ?? 'the call could not be completed')}" type="${escape(c.problem?.code ?? 'error')}">${escape(failedBehaviors(c))}</error>`;
  } else if (c.status !== 'passed') {
    body = `      <skipped message="${escape(`call ${c.status}${c.problem ? `: ${c.problem.message}` : ''}`)}"/>`;
  }
  return [open, ...(body ? [body] : []), props, '    </testcase>'].join('\n');
}

/**
 * A JUnit XML report of a run: one `<testsuite>` per pinned version, one
 * `<testcase>` per call; a failed call carries a `<failure>` listing the
 * behaviors that failed with the judge's rationale, an errored one an `<error>`.
 */
export function junitReport(run: RunObject): string {
  const byVersion = new Map<string, RunCallResult[]>();
  for (const c of run.results) byVersion.set(c.test_version_id, [...(byVersion.get(c.test_version_id) ?? []), c]);
  const count = (list: RunCallResult[], status: string) => list.filter((c) => c.status === status).length;
  const skipped = (list: RunCallResult[]) => list.filter((c) => !['passed', 'failed', 'error'].includes(c.status)).length;
  const time = (list: RunCallResult[]) => seconds(list.reduce((sum, c) => sum + (c.metrics.duration_ms ?? 0), 0));
  const suites = [...byVersion.values()].map((calls) => {
    const first = calls[0]!;
    const name = `${first.test_name} v${first.version}`;
    const attrs = `name="${escape(name)}" tests="${calls.length}" failures="${count(calls, 'failed')}" errors="${count(calls, 'error')}" skipped="${skipped(calls)}" time="${time(calls)}"`;
    return [`  <testsuite ${attrs}>`, ...calls.map((c) => testCase(run, c)), '  </testsuite>'].join('\n');
  });
  const all = run.results;
  const attrs = `name="${escape(`svc run ${run.id}`)}" tests="${all.length}" failures="${count(all, 'failed')}" errors="${count(all, 'error')}" skipped="${skipped(all)}" time="${time(all)}"`;
  return ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites ${attrs}>`, ...suites, '</testsuites>', ''].join('\n');
}
