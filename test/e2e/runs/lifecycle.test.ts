import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError } from '../../helpers/http.js';
import { type RunWorld, readAllEvents, startRunWorld, waitFor } from '../../helpers/runs.js';

const SCRIPT = 'Caller: Hi, where is my order 42?\nCaller: Thanks, goodbye.';
const slowMock = (delay_ms: number) => [{ tool: 'lookup_order', answer: { order_id: '42', status: 'shipped' }, delay_ms }];

describe('runs: cancel, restart, idempotency, superseded versions', () => {
  let w: RunWorld;
  const create = (versions: string[], extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) => w.createRun(versions, extra, headers);
  /** Waits until the run's first call is inside its slow mock tool. */
  const inFlight = (runId: string) =>
    waitFor('a call in flight', async () => {
      const res = await w.api.get(`/api/runs/${runId}/events?limit=500`);
      return res.body.events.some((e: any) => e.type === 'turn' && e.data.role === 'caller') && res.body;
    });

  before(async () => {
    w = await startRunWorld();
  });
  after(() => w.cleanup());

  it('cancels mid-run: the running call stops, queued ones never start, run.canceled is the last event', async () => {
    const test = await w.test({ name: 'Cancel me', scenario: SCRIPT, expected_behaviors: ['says "shipped"'], mock_tools: slowMock(60_000) });
    const run = (await create([test.version_id], { repeat: 3, concurrency: 1 })).body;
    await inFlight(run.id);
    const canceled = await w.api.post(`/api/runs/${run.id}/cancel`, {});
    assert.equal(canceled.status, 200, canceled.text);
    assert.equal(canceled.body.status, 'canceled');
    assert.ok(canceled.body.finished_at);
    assert.deepEqual(
      canceled.body.results.map((c: any) => [c.status, c.end_reason, c.problem?.code]),
      [
        ['canceled', 'canceled', 'canceled'],
        ['canceled', null, 'canceled'],
        ['canceled', null, 'canceled'],
      ],
    );
    assert.equal(canceled.body.summary.calls.canceled, 3);
    const { events } = await readAllEvents(w.api, run.id);
    assert.equal(events.at(-1).type, 'run.canceled');
    assert.equal(events.filter((e) => e.type === 'call.started').length, 1, 'queued calls never started');
    assert.deepEqual(events.map((e) => e.seq), events.map((_, i) => i + 1));
    const quiet = await w.api.get(`/api/runs/${run.id}/events?after=${events.length}&wait=1`);
    assert.deepEqual(quiet.body.events, [], 'the stopped call writes nothing after run.canceled');
    assert.equal(quiet.body.done, true);

    const twice = await w.api.post(`/api/runs/${run.id}/cancel`, {});
    assert.equal(twice.status, 200);
    assert.equal(twice.body.status, 'canceled');
    const listed = await w.api.get('/api/runs?project=default&status=canceled');
    assert.deepEqual(listed.body.items.map((r: any) => r.id), [run.id]);
  });

  it('refuses to cancel a finished run', async () => {
    const test = await w.test({ name: 'Quick', scenario: SCRIPT, expected_behaviors: ['says "shipped"'], mock_tools: slowMock(0) });
    const run = await w.finished((await create([test.version_id])).body.id);
    assertError(await w.api.post(`/api/runs/${run.id}/cancel`, {}), 409, 'run_finished');
    assertError(await w.api.post('/api/runs/run_unknown/cancel', {}), 404, 'not_found');
  });

  it('makes one run per Idempotency-Key and body; another body with the key is 409; a new key is a new run', async () => {
    const test = await w.test({ name: 'Idempotent', scenario: SCRIPT, expected_behaviors: ['says "shipped"'], mock_tools: slowMock(0) });
    const first = await create([test.version_id], {}, { 'idempotency-key': 'ci-job-1' });
    assert.equal(first.status, 201);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    const again = await create([test.version_id], {}, { 'idempotency-key': 'ci-job-1' });
    assert.equal(again.status, 201);
    assert.equal(again.body.id, first.body.id, 'the same key and body return the same run');
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    const conflict = await create([test.version_id], { repeat: 2 }, { 'idempotency-key': 'ci-job-1' });
    assertError(conflict, 409, 'idempotency_conflict');
    assert.equal(conflict.body.details.run_id, first.body.id);
    const other = await create([test.version_id], {}, { 'idempotency-key': 'ci-job-2' });
    assert.notEqual(other.body.id, first.body.id);
    const plain = [await create([test.version_id]), await create([test.version_id])];
    assert.notEqual(plain[0]!.body.id, plain[1]!.body.id, 'without a key every request makes a new run');
    assertError(await create([test.version_id], {}, { 'idempotency-key': 'has spaces in it' }), 400, 'invalid_request');
    const all = await w.api.get('/api/runs?project=default&limit=100');
    assert.equal(all.body.items.filter((r: any) => r.id === first.body.id).length, 1);
    for (const r of [first, other, ...plain]) await w.finished(r.body.id);
  });

  it('marks a result superseded once its pinned version is edited', async () => {
    const test = await w.test({ name: 'Editable', scenario: SCRIPT, expected_behaviors: ['says "shipped"'], mock_tools: slowMock(0) });
    const run = await w.finished((await create([test.version_id])).body.id);
    assert.equal(run.results[0].superseded, false);
    const edited = await w.api.patch(`/api/tests/${test.id}`, { expected_version_id: test.version_id, expected_behaviors: ['says "shipped"', 'stays polite'] });
    assert.equal(edited.status, 200);
    const after = (await w.api.get(`/api/runs/${run.id}`)).body;
    assert.equal(after.results[0].superseded, true);
    assert.equal(after.results[0].test_version_id, test.version_id, 'the result still names its pinned version');
    assert.equal(after.results[0].version, 1);
    assert.deepEqual(after.results[0].behaviors.map((b: any) => b.behavior), ['says "shipped"'], 'graded against the pinned content');
    const rerun = await w.finished((await create([edited.body.version_id])).body.id);
    assert.equal(rerun.results[0].superseded, false);
    assert.equal(rerun.results[0].version, 2);
  });

  it('survives a crash mid-run (SIGKILL): the interrupted call errors with a reason, the queued ones run, the run finishes', async () => {
    const test = await w.test({ name: 'Crash', scenario: SCRIPT, expected_behaviors: ['says "shipped"'], mock_tools: slowMock(3000) });
    const run = (await create([test.version_id], { repeat: 3, concurrency: 1 })).body;
    await inFlight(run.id);
    await w.restart('SIGKILL');
    const done = await w.finished(run.id, 120_000);
    assert.equal(done.status, 'error');
    assert.deepEqual(
      done.results.map((c: any) => c.status),
      ['error', 'passed', 'passed'],
    );
    assert.equal(done.results[0].problem.code, 'interrupted');
    assert.match(done.results[0].problem.message, /server stopped/);
    assert.equal(done.results[0].transcript[0].role, 'caller', 'what the interrupted call said before the crash is kept');
    const { events } = await readAllEvents(w.api, run.id);
    assert.deepEqual(events.map((e) => e.seq), events.map((_, i) => i + 1), 'no gap or repeat across the restart');
    assert.equal(events.at(-1).type, 'run.finished');
    assert.equal(events.filter((e) => e.type === 'call.started').length, 3);
  });

  it('stops gracefully mid-run (SIGTERM): a pending long-poll is answered, the in-flight call errors, the run resumes after the restart', async () => {
    const test = await w.test({ name: 'Graceful', scenario: SCRIPT, expected_behaviors: ['says "shipped"'], mock_tools: slowMock(60_000) });
    const run = (await create([test.version_id], { repeat: 2, concurrency: 1 })).body;
    const head = await inFlight(run.id);
    const pending = w.api.get(`/api/runs/${run.id}/events?after=${head.next}&wait=30`);
    // Let the long-poll reach the server before it is told to stop.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const restarted = w.restart('SIGTERM');
    const answered = await pending;
    assert.equal(answered.status, 200, 'the long-poll is answered, not cut off, when the server stops');
    assert.equal(await restarted, 0, 'the server exits cleanly');
    const events = (await w.api.get(`/api/runs/${run.id}/events?limit=500`)).body.events;
    const first = events.find((e: any) => e.type === 'call.finished');
    assert.equal(first.data.status, 'error');
    assert.equal(first.data.problem.code, 'interrupted');
    assert.match(first.data.problem.message, /stopped/);
    await waitFor('the queued call to start after the restart', async () => {
      const res = await w.api.get(`/api/runs/${run.id}/events?limit=500`);
      return res.body.events.filter((e: any) => e.type === 'call.started').length === 2;
    });
    assert.equal((await w.api.post(`/api/runs/${run.id}/cancel`, {})).body.status, 'canceled');
  });

  it('never leaves a run hanging when the server comes back without a model endpoint: its queued calls end in error', async () => {
    const test = await w.test({ name: 'Orphan', scenario: SCRIPT, expected_behaviors: ['says "shipped"'], mock_tools: slowMock(60_000) });
    const run = (await create([test.version_id], { repeat: 2, concurrency: 1 })).body;
    await inFlight(run.id);
    await w.restart('SIGKILL', { SVC_LLM_BASE_URL: '', SVC_LLM_MODEL: '' });
    const done = await w.finished(run.id);
    assert.equal(done.status, 'error');
    assert.deepEqual(
      done.results.map((c: any) => c.problem.code),
      ['interrupted', 'llm_not_configured'],
    );
    assertError(await create([test.version_id]), 503, 'llm_not_configured');
    await w.restart('SIGTERM');
  });
});
