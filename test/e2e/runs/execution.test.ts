import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AGENT_TOKEN, type RunWorld, readAllEvents, startRunWorld } from '../../helpers/runs.js';

const ORDER_SCRIPT = 'The caller wants to know where order 42 is.\nCaller: Hi, where is my order 42?\nCaller: Thanks, goodbye.';
const SHIPPED = { tool: 'lookup_order', answer: { order_id: '42', status: 'shipped' } };

describe('runs: execution against the example agent and the model emulator', () => {
  let w: RunWorld;

  before(async () => {
    w = await startRunWorld({ SVC_RUN_MAX_TURNS: '3' });
  });
  after(() => w.cleanup());

  it('passes a run: transcript, tool call, graded behaviors with turns, judge version, metrics; the agent got its bearer and headers', async () => {
    const test = await w.test({ name: 'Order status', scenario: ORDER_SCRIPT, expected_behaviors: ['says "shipped"', 'calls `lookup_order`'], mock_tools: [SHIPPED] });
    const judgedBefore = (await w.model.json('GET', '/_admin/requests')).last_seq;
    const created = await w.startRun([test.version_id]);
    assert.equal(created.status, 'queued');
    assert.equal(created.connection_id, w.connectionId, 'the agent\'s connection is the default');
    assert.equal(created.summary.calls.total, 1);
    assert.deepEqual(created.test_versions, [test.version_id]);

    const run = await w.finished(created.id);
    assert.equal(run.status, 'passed');
    assert.ok(run.started_at && run.finished_at);
    const [call] = run.results;
    assert.equal(call.status, 'passed');
    assert.equal(call.test_version_id, test.version_id);
    assert.equal(call.superseded, false);
    assert.equal(call.persona_name, 'default');
    assert.equal(call.end_reason, 'agent_ended');
    assert.deepEqual(
      call.transcript.map((e: any) => [e.role, e.text]),
      [
        ['caller', 'Hi, where is my order 42?'],
        ['tool', '{"order_id":"42","status":"shipped"}'],
        ['agent', 'Your order 42 is shipped.'],
        ['caller', 'Thanks, goodbye.'],
        ['agent', 'Thank you for calling. Goodbye!'],
      ],
    );
    assert.deepEqual(call.tool_calls.map((t: any) => [t.name, t.arguments, t.outcome, t.transcript_index]), [['lookup_order', { order_id: '42' }, 'answer', 1]]);
    assert.deepEqual(
      call.behaviors.map((b: any) => [b.behavior, b.verdict, b.turns]),
      [
        ['says "shipped"', 'passed', [2]],
        ['calls `lookup_order`', 'passed', [1]],
      ],
    );
    assert.ok(call.behaviors.every((b: any) => b.rationale.length > 0));
    assert.deepEqual(call.judge, { prompt_version: 'judge-v1', model: 'svc-model-emulator' });
    assert.equal(call.metrics.turns, 4);
    assert.equal(call.metrics.tool_calls, 1);
    assert.equal(call.metrics.unmatched_tools, 0);
    assert.ok(call.metrics.agent_latency_ms.p95 >= call.metrics.agent_latency_ms.p50);
    assert.equal(typeof call.metrics.duration_ms, 'number');
    assert.deepEqual(run.summary, { calls: { total: 1, queued: 0, running: 0, passed: 1, failed: 0, error: 0, canceled: 0 }, behaviors: { passed: 2, failed: 0, error: 0 }, unmatched_tools: 0 });

    const seen = (await w.agent.json('GET', '/_requests')).requests.filter((r: any) => r.conversation_id === call.id);
    assert.ok(seen.length >= 3, 'one request per caller message and one per tool round');
    assert.ok(seen.every((r: any) => r.authorized && r.headers['x-tenant'] === 'acme'), 'bearer token and config headers reach the agent');

    const asked = (await w.model.json('GET', `/_admin/requests?after_seq=${judgedBefore}`)).requests;
    const judge = asked.filter((r: any) => r.role === 'judge');
    assert.ok(judge.length >= 1);
    assert.ok(judge.every((r: any) => r.temperature === 0 && r.response_format === 'json_schema' && r.model === 'svc-model-emulator'));
    assert.ok(asked.some((r: any) => r.role === 'caller' && r.response_format === 'json_schema'));

    const events = await readAllEvents(w.api, run.id);
    const everything = JSON.stringify([run, events.events, w.server.output]);
    assert.ok(!everything.includes(AGENT_TOKEN), 'the connection credential appears in no response, event or log line');
  });

  it('fails a behavior with the judge\'s rationale; the run fails', async () => {
    const test = await w.test({ name: 'Refund expected', scenario: ORDER_SCRIPT, expected_behaviors: ['says "shipped"', 'offers a "refund"'], mock_tools: [SHIPPED] });
    const run = await w.finished((await w.startRun([test.version_id])).id);
    assert.equal(run.status, 'failed');
    const [call] = run.results;
    assert.equal(call.status, 'failed');
    const [ok, bad] = call.behaviors;
    assert.equal(ok.verdict, 'passed');
    assert.equal(bad.verdict, 'failed');
    assert.equal(bad.behavior, 'offers a "refund"');
    assert.match(bad.rationale, /refund/);
    assert.deepEqual(run.summary.behaviors, { passed: 1, failed: 1, error: 0 });
    const grades = (await readAllEvents(w.api, run.id)).events.filter((e) => e.type === 'grade');
    assert.deepEqual(
      grades.map((g) => [g.data.index, g.data.verdict]),
      [
        [0, 'passed'],
        [1, 'failed'],
      ],
    );
    assert.equal(grades[1].data.rationale, bad.rationale);
  });

  it('answers mock tools with their answer or error, after their delay', async () => {
    const failing = await w.test({
      name: 'Warehouse down',
      scenario: ORDER_SCRIPT,
      expected_behaviors: ['says "warehouse offline"'],
      mock_tools: [{ tool: 'lookup_order', error: 'warehouse offline' }],
    });
    const slow = await w.test({
      name: 'Slow lookup',
      scenario: ORDER_SCRIPT,
      expected_behaviors: ['says "delivered"'],
      mock_tools: [{ tool: 'lookup_order', answer: { order_id: '42', status: 'delivered' }, delay_ms: 400 }],
    });
    const run = await w.finished((await w.startRun([failing.version_id, slow.version_id])).id);
    assert.equal(run.status, 'passed', JSON.stringify(run.results.map((r: any) => r.behaviors)));
    const [errored, delayed] = run.results;
    assert.equal(errored.tool_calls[0].outcome, 'error');
    assert.equal(errored.transcript[1].text, '{"error":"warehouse offline"}');
    assert.equal(errored.transcript[2].text, 'Sorry, I could not look up your order: warehouse offline.');

    const tool = delayed.tool_calls[0];
    assert.equal(tool.outcome, 'answer');
    assert.equal(tool.delay_ms, 400);
    assert.ok(Date.parse(tool.answered_at) - Date.parse(tool.requested_at) >= 400, 'the answer comes delay_ms after the request');
    const reply = delayed.transcript[2];
    assert.equal(reply.text, 'Your order 42 is delivered.');
    assert.ok(Date.parse(reply.at) >= Date.parse(tool.answered_at), 'the agent answers only after the delayed tool result');
    const events = (await readAllEvents(w.api, run.id)).events.filter((e) => e.data.call_id === delayed.id);
    const toolEvent = events.findIndex((e) => e.type === 'tool_call');
    assert.equal(events[toolEvent].data.delay_ms, 400);
    assert.equal(events[toolEvent + 1].type, 'turn');
    assert.equal(events[toolEvent + 1].data.role, 'agent', 'the agent turn follows the tool call');
  });

  it('flags a tool call no mock answers; the agent receives an error saying so', async () => {
    const test = await w.test({ name: 'Opening hours', scenario: 'Caller: When are you open?\nCaller: OK, bye.', expected_behaviors: ['calls `get_opening_hours`'] });
    const run = await w.finished((await w.startRun([test.version_id])).id);
    const [call] = run.results;
    assert.deepEqual(call.unmatched_tools, ['get_opening_hours']);
    assert.equal(call.metrics.unmatched_tools, 1);
    assert.equal(call.tool_calls[0].outcome, 'unmatched');
    assert.match(call.transcript[1].text, /no mock tool named \\"get_opening_hours\\"/);
    assert.match(call.transcript[2].text, /^Sorry, I could not check that: svc: no mock tool named "get_opening_hours"/);
    assert.equal(run.summary.unmatched_tools, 1);
    const toolEvent = (await readAllEvents(w.api, run.id)).events.find((e) => e.type === 'tool_call');
    assert.equal(toolEvent.data.outcome, 'unmatched');
  });

  it('fans out over the version\'s personas and repeats each; each persona is prompted as itself', async () => {
    for (const [name, description] of [['Alice', 'A patient regular customer'], ['Bob', 'In a hurry']]) {
      assert.equal((await w.api.post('/api/personas', { name, description, project: 'default' })).status, 201);
    }
    const test = await w.test({
      name: 'Personas',
      scenario: 'Caller: Hi, this is {persona}, where is my order 7?\nCaller: bye',
      expected_behaviors: ['says "shipped"'],
      personas: ['Alice', 'Bob'],
      mock_tools: [{ tool: 'lookup_order', answer: { order_id: '7', status: 'shipped' } }],
    });
    const created = await w.startRun([test.version_id], { repeat: 2 });
    assert.equal(created.summary.calls.total, 4);
    assert.equal(created.repeat, 2);
    const run = await w.finished(created.id);
    assert.equal(run.status, 'passed');
    assert.deepEqual(
      run.results.map((c: any) => [c.persona_name, c.repetition]),
      [
        ['Alice', 1],
        ['Alice', 2],
        ['Bob', 1],
        ['Bob', 2],
      ],
    );
    for (const c of run.results) assert.equal(c.transcript[0].text, `Hi, this is ${c.persona_name}, where is my order 7?`);
    assert.equal(new Set(run.results.map((c: any) => c.id)).size, 4);
  });

  it('ends a call at the turn limit', async () => {
    const test = await w.test({ name: 'Chatty', scenario: 'Caller: hello\nCaller: hello again\nCaller: hello once more\nCaller: still here\nCaller: bye', expected_behaviors: ['says "Hello"'] });
    const run = await w.finished((await w.startRun([test.version_id])).id);
    const [call] = run.results;
    assert.equal(call.end_reason, 'turn_limit');
    assert.equal(call.transcript.filter((e: any) => e.role === 'caller').length, 3, 'SVC_RUN_MAX_TURNS=3');
    assert.equal(call.status, 'passed');
  });

  it('treats a malformed judgement as an error, never a pass', async () => {
    const test = await w.test({ name: 'Bad judge', scenario: ORDER_SCRIPT, expected_behaviors: ['says "shipped"', 'says "shipped" <judge:malformed>'], mock_tools: [SHIPPED] });
    const run = await w.finished((await w.startRun([test.version_id])).id);
    assert.equal(run.status, 'error');
    const [call] = run.results;
    assert.equal(call.status, 'error');
    assert.equal(call.problem.code, 'judge_invalid');
    assert.match(call.problem.message, /no verdict for behavior 1/);
    assert.ok(call.behaviors.every((b: any) => b.verdict === 'error'));
    assert.deepEqual(run.summary.behaviors, { passed: 0, failed: 0, error: 2 });
  });

  it('errors a call whose agent cannot be reached, and one whose model endpoint keeps failing', async () => {
    const conn = await w.api.post(`/v1/agents/${w.agentId}/connections`, { name: 'dead', connectionType: 'http_chat', config: { url: 'http://127.0.0.1:9/chat' } });
    const test = await w.test({ name: 'Unreachable', scenario: ORDER_SCRIPT, expected_behaviors: ['says "shipped"'], mock_tools: [SHIPPED] });
    const dead = await w.finished((await w.startRun([test.version_id], { connection_id: conn.body.connection.id })).id);
    assert.equal(dead.status, 'error');
    assert.equal(dead.results[0].problem.code, 'agent_unreachable');
    assert.equal(dead.results[0].end_reason, 'error');
    assert.match(dead.results[0].behaviors[0].rationale, /Not graded/);

    await w.model.json('POST', '/_admin/faults', { status: 500, count: 100 });
    try {
      const down = await w.finished((await w.startRun([test.version_id])).id);
      assert.equal(down.status, 'error');
      assert.equal(down.results[0].problem.code, 'llm_unavailable');
      assert.match(down.results[0].problem.message, /500/);
    } finally {
      await w.model.json('DELETE', '/_admin/faults');
    }
  });
});
