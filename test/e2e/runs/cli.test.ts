import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { cliHome, runCli } from '../../helpers/cli.js';
import { type RunWorld, startRunWorld } from '../../helpers/runs.js';

const SCRIPT = 'Caller: Hi, where is my order 42?\nCaller: Thanks, goodbye.';
const MOCK = [{ tool: 'lookup_order', answer: { order_id: '42', status: 'shipped' } }];

/** Parses a JUnit report after checking it is well-formed XML. */
function parseJunit(file: string) {
  const xml = readFileSync(file, 'utf8');
  const valid = XMLValidator.validate(xml);
  assert.equal(valid, true, `well-formed XML: ${JSON.stringify(valid)}`);
  return new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => ['testsuite', 'testcase'].includes(name) }).parse(xml);
}

describe('CLI: svc run for CI, svc runs list|show|events|cancel', () => {
  let w: RunWorld;
  let env: Record<string, string>;
  let work: string;
  const svc = (...args: string[]) => runCli(args, env);

  before(async () => {
    w = await startRunWorld();
    work = mkdtempSync(path.join(tmpdir(), 'svc-cli-runs-'));
    env = { SVC_URL: w.server.url, SVC_API_KEY: w.admin.api_key, SVC_PROJECT: 'default', XDG_CONFIG_HOME: cliHome() };
    await w.test({ name: 'Order status', scenario: SCRIPT, expected_behaviors: ['says "shipped"'], mock_tools: MOCK });
    await w.test({ name: 'Refund', scenario: SCRIPT, expected_behaviors: ['says "shipped"', 'offers a "refund"'], mock_tools: MOCK });
  });
  after(() => w.cleanup());

  it('exits 0 when the run passed, with progress on stderr, a result table and a JUnit report', async () => {
    const junit = path.join(work, 'pass.xml');
    const res = await svc('run', '--test', 'Order status', '--agent', w.agentId, '--wait', '--junit', junit);
    assert.equal(res.code, 0, res.stderr + res.stdout);
    assert.match(res.stderr, /queued 1 calls/);
    assert.match(res.stderr, /1\/1 calls done: call_\S+ passed/, 'plain progress lines when stderr is not a terminal');
    assert.match(res.stdout, /PASSED/);
    assert.match(res.stdout, /Order status\s+v1\s+default #1\s+passed\s+1\/1/);
    const report = parseJunit(junit);
    assert.equal(report.testsuites.tests, '1');
    assert.equal(report.testsuites.failures, '0');
    const [suite] = report.testsuites.testsuite;
    assert.equal(suite.name, 'Order status v1');
    assert.equal(suite.testcase[0].name, 'default #1');
    assert.equal(suite.testcase[0].failure, undefined);
  });

  it('exits 10 when a behavior failed; the JUnit failure and the --json result carry the behavior and the rationale', async () => {
    assert.equal((await w.api.post('/v1/test-suites?projectId=default', { name: 'smoke', testIds: (await w.api.get('/api/tests?project=default')).body.items.map((t: any) => t.id) })).status, 201);
    const junit = path.join(work, 'fail.xml');
    const res = await svc('run', '--suite', 'smoke', '--agent', w.agentId, '--wait', '--junit', junit, '--json');
    assert.equal(res.code, 10, res.stderr);
    const result = JSON.parse(res.stdout);
    assert.equal(result.status, 'failed');
    assert.equal(result.results.length, 2);
    const failed = result.results.find((c: any) => c.status === 'failed');
    const rationale = failed.behaviors.find((b: any) => b.verdict === 'failed').rationale;

    const report = parseJunit(junit);
    assert.equal(report.testsuites.tests, '2');
    assert.equal(report.testsuites.failures, '1');
    const refund = report.testsuites.testsuite.find((s: any) => s.name === 'Refund v1');
    const failure = refund.testcase[0].failure;
    assert.match(failure.message, /1 of 2 behaviors failed: offers a "refund"/);
    assert.ok(failure['#text'].includes(rationale), 'the failure names the judge\'s rationale');

    const human = await svc('runs', 'show', result.id);
    assert.equal(human.code, 0);
    assert.match(human.stdout, /FAILED/);
    assert.ok(human.stdout.includes(`✗ offers a "refund"`));
    assert.ok(human.stdout.includes(rationale));
  });

  it('starts without waiting, lists, prints events and refuses to cancel a finished run (exit 5)', async () => {
    const started = await svc('run', '--test', 'Order status', '--agent', w.agentId);
    assert.equal(started.code, 0, started.stderr);
    const runId = started.stdout.trim();
    assert.match(runId, /^run_/);
    await w.finished(runId);
    const list = JSON.parse((await svc('runs', 'list', '--json')).stdout);
    assert.equal(list.runs[0].id, runId);
    const filtered = JSON.parse((await svc('runs', 'list', '--status', 'failed', '--json')).stdout);
    assert.ok(filtered.runs.length >= 1 && filtered.runs.every((r: any) => r.status === 'failed'));
    const events = JSON.parse((await svc('runs', 'events', runId, '--json')).stdout).events;
    assert.deepEqual(events.map((e: any) => e.seq), events.map((_: unknown, i: number) => i + 1));
    assert.equal(events.at(-1).type, 'run.finished');
    const followed = await svc('runs', 'events', runId, '--follow');
    assert.match(followed.stdout, /run\.finished\s+passed/);
    const cancel = await svc('runs', 'cancel', runId);
    assert.equal(cancel.code, 5);
    assert.match(cancel.stderr, /run_finished/);
    const unknown = await svc('run', '--test', 'No such test', '--agent', w.agentId);
    assert.equal(unknown.code, 4);
    assert.match(unknown.stderr, /No such test/);
    const noAgent = await svc('run', '--test', 'Order status', '--agent', 'agt_nope', '--wait');
    assert.equal(noAgent.code, 6);
    assert.match(noAgent.stderr, /unknown_agent/);
  });

  it('cancels a running run', async () => {
    const slow = await w.test({ name: 'Slow', scenario: SCRIPT, expected_behaviors: ['says "shipped"'], mock_tools: [{ ...MOCK[0], delay_ms: 60_000 }] });
    const run = await w.startRun([slow.version_id]);
    const res = await svc('runs', 'cancel', run.id, '--json');
    assert.equal(res.code, 0, res.stderr);
    assert.equal(JSON.parse(res.stdout).status, 'canceled');
  });
});
