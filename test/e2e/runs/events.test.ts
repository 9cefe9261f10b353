import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError } from '../../helpers/http.js';
import { type RunWorld, readAllEvents, startRunWorld, waitFor } from '../../helpers/runs.js';

const SCRIPT = 'Caller: Hi, where is my order 42?\nCaller: Thanks, goodbye.';

describe('runs: events, read by polling with after/next until done', () => {
  let w: RunWorld;

  before(async () => {
    w = await startRunWorld();
  });
  after(() => w.cleanup());

  it('reads every event in several small polls: seq 1..N with no gap or repeat, the terminal event last, then done', async () => {
    const a = await w.test({ name: 'A', scenario: SCRIPT, expected_behaviors: ['says "shipped"', 'calls `lookup_order`'], mock_tools: [{ tool: 'lookup_order', answer: { status: 'shipped' } }] });
    const b = await w.test({ name: 'B', scenario: SCRIPT, expected_behaviors: ['says "refund"'], mock_tools: [{ tool: 'lookup_order', answer: { status: 'lost' } }] });
    const run = await w.startRun([a.version_id, b.version_id], { repeat: 2 });
    const { events, polls } = await readAllEvents(w.api, run.id, 3, 10);
    assert.ok(polls >= Math.ceil(events.length / 3), `read in ${polls} polls`);
    assert.deepEqual(
      events.map((e) => e.seq),
      events.map((_, i) => i + 1),
      'seq counts 1, 2, 3... with no gaps or repeats',
    );
    assert.equal(events[0].type, 'run.queued');
    assert.equal(events[0].data.calls, 4);
    assert.equal(events[1].type, 'run.started');
    assert.equal(events.at(-1).type, 'run.finished');
    assert.equal(events.at(-1).data.status, 'failed');
    assert.equal(events.filter((e) => e.type === 'run.finished').length, 1);
    const finished = events.filter((e) => e.type === 'call.finished');
    assert.equal(finished.length, 4);
    for (const f of finished) {
      const mine = events.filter((e) => e.data.call_id === f.data.call_id);
      assert.equal(mine[0].type, 'call.started');
      assert.equal(mine.at(-1).type, 'call.finished', 'a call\'s grades come before its call.finished');
      assert.ok(mine.some((e) => e.type === 'grade'));
    }
    const full = await w.api.get(`/api/runs/${run.id}`);
    assert.deepEqual(events.at(-1).data.summary, full.body.summary);

    const again = await w.api.get(`/api/runs/${run.id}/events?after=${events.length}`);
    assert.deepEqual(again.body, { events: [], next: events.length, caughtUp: true, done: true }, 'after the end: nothing more, done');
    const middle = await w.api.get(`/api/runs/${run.id}/events?after=5&limit=2`);
    assert.deepEqual(
      middle.body.events.map((e: any) => e.seq),
      [6, 7],
    );
    assert.equal(middle.body.next, 7);
    assert.equal(middle.body.caughtUp, false);
    assert.equal(middle.body.done, false, 'not done while events remain unread');
  });

  it('long-polls: a quiet wait returns empty and not done; a waiting read returns as soon as the next event is written', async () => {
    const slow = await w.test({ name: 'Slow', scenario: SCRIPT, expected_behaviors: ['says "shipped"'], mock_tools: [{ tool: 'lookup_order', answer: { status: 'shipped' }, delay_ms: 4000 }] });
    const run = await w.startRun([slow.version_id]);
    const head = await waitFor('the caller\'s first message', async () => {
      const res = await w.api.get(`/api/runs/${run.id}/events?limit=500`);
      return res.body.events.some((e: any) => e.type === 'turn' && e.data.role === 'caller') && res.body;
    });
    assert.ok(!head.events.some((e: any) => e.type === 'tool_call'), 'the mock tool is still answering');
    const quiet = await w.api.get(`/api/runs/${run.id}/events?after=${head.next}&wait=1`);
    assert.deepEqual(quiet.body, { events: [], next: head.next, caughtUp: true, done: false });

    const woken = await w.api.get(`/api/runs/${run.id}/events?after=${head.next}&wait=30`);
    assert.equal(woken.status, 200);
    assert.ok(woken.body.events.length >= 1, 'the long-poll returned with the new event, not empty at its timeout');
    assert.equal(woken.body.events[0].seq, head.next + 1);
    assert.equal(woken.body.events[0].type, 'tool_call');
    assert.equal(woken.body.done, false);
    await w.finished(run.id);
    const end = await w.api.get(`/api/runs/${run.id}/events?after=0&limit=500&wait=30`);
    assert.equal(end.body.done, true, 'a finished run answers at once with done');
  });

  it('refuses bad event queries and unknown runs', async () => {
    assertError(await w.api.get('/api/runs/run_nope/events'), 404, 'not_found');
    const test = await w.test({ name: 'Q', scenario: SCRIPT, expected_behaviors: ['says "hi"'] });
    const run = await w.startRun([test.version_id]);
    assertError(await w.api.get(`/api/runs/${run.id}/events?wait=31`), 400, 'invalid_request');
    assertError(await w.api.get(`/api/runs/${run.id}/events?after=-1`), 400, 'invalid_request');
    assertError(await w.api.get(`/api/runs/${run.id}/events?limit=501`), 400, 'invalid_request');
    await w.finished(run.id);
  });
});
