import assert from 'node:assert/strict';
import { it } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { RunCallResult, RunObject } from '@svc/contract';
import { junitReport } from './junit.js';

const call = (over: Partial<RunCallResult>): RunCallResult => ({
  id: 'call_1', test_id: 'tst_1', test_name: 'A <"quoted"> & \u0001odd test', test_version_id: 'tstv_1', version: 1, superseded: false,
  persona_id: 'prs_1', persona_name: 'Zoë', repetition: 1, status: 'passed', end_reason: 'agent_ended', problem: null, started_at: null, finished_at: null,
  transcript: [], tool_calls: [], unmatched_tools: [], behaviors: [], judge: null,
  metrics: { turns: 0, agent_latency_ms: null, tool_calls: 0, unmatched_tools: 0, duration_ms: 1500 },
  ...over,
});

it('JUnit: well-formed whatever the names say; failures, errors and skips counted per suite', () => {
  const run = {
    id: 'run_1',
    results: [
      call({ status: 'failed', behaviors: [{ index: 0, behavior: 'says "<b>" & more', verdict: 'failed', rationale: 'No agent message ]]> matches', turns: [2] }] }),
      call({ id: 'call_2', status: 'error', problem: { code: 'agent_unreachable', message: 'The agent could not be reached: <ECONNREFUSED>' } }),
      call({ id: 'call_3', status: 'canceled' }),
      call({ id: 'call_4', test_version_id: 'tstv_2', test_name: 'Other' }),
    ],
  } as unknown as RunObject;
  const xml = junitReport(run);
  assert.equal(XMLValidator.validate(xml), true);
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (n) => n === 'testsuite' || n === 'testcase' }).parse(xml);
  assert.deepEqual([doc.testsuites.tests, doc.testsuites.failures, doc.testsuites.errors, doc.testsuites.skipped], ['4', '1', '1', '1']);
  const [first, second] = doc.testsuites.testsuite;
  assert.equal(first.name, 'A <"quoted"> & odd test v1', 'control characters dropped, the rest escaped and read back');
  assert.match(first.testcase[0].failure['#text'], /\[failed\] says "<b>" & more\n {2}No agent message \]\]> matches \(turns 2\)/);
  assert.equal(first.testcase[1].error.type, 'agent_unreachable');
  assert.equal(first.testcase[2].skipped.message, 'call canceled');
  assert.equal(second.tests, '1');
  assert.equal(first.time, '4.500');
});
