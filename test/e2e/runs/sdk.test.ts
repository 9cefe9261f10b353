import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConflictError, Svc, ValidationError } from '@svc/sdk';
import type { RunEvent } from '@svc/contract';
import { type RunWorld, startRunWorld } from '../../helpers/runs.js';

const SCRIPT = 'Caller: Hi, where is my order 42?\nCaller: Thanks, goodbye.';

describe('SDK: svc.runs', () => {
  let w: RunWorld;
  let svc: Svc;
  let version: string;

  before(async () => {
    w = await startRunWorld();
    svc = new Svc({ apiKey: w.admin.api_key, baseUrl: w.server.url, maxRetries: 0 });
    version = (await w.test({ name: 'Order', scenario: SCRIPT, expected_behaviors: ['says "shipped"'], mock_tools: [{ tool: 'lookup_order', answer: { status: 'shipped' } }] })).version_id;
  });
  after(() => w.cleanup());

  it('creates with an idempotency key, follows the events to done and returns the finished run', async () => {
    const run = await svc.runs.create({ test_versions: [version], agent_id: w.agentId, project: 'default' }, { idempotencyKey: 'sdk-1' });
    const same = await svc.runs.create({ test_versions: [version], agent_id: w.agentId, project: 'default' }, { idempotencyKey: 'sdk-1' });
    assert.equal(same.id, run.id);
    await assert.rejects(svc.runs.create({ test_versions: [version], agent_id: w.agentId, project: 'default', repeat: 2 }, { idempotencyKey: 'sdk-1' }), ConflictError);
    const seen: RunEvent[] = [];
    const done = await svc.runs.wait(run.id, { onEvent: (e) => seen.push(e), limit: 2 });
    assert.equal(done.status, 'passed');
    assert.deepEqual(seen.map((e) => e.seq), seen.map((_, i) => i + 1));
    assert.equal(seen.at(-1)!.type, 'run.finished');
    const replayed: RunEvent[] = [];
    for await (const e of svc.runs.events(run.id, { after: 3 })) replayed.push(e);
    assert.deepEqual(replayed, seen.slice(3));
    assert.equal((await svc.runs.get(run.id)).results[0]!.status, 'passed');
    const listed = await svc.runs.list({ project: 'default', status: 'passed' }).toArray();
    assert.ok(listed.some((r) => r.id === run.id));
  });

  it('cancels, and types refusals', async () => {
    const slow = await w.test({ name: 'Slow', scenario: SCRIPT, expected_behaviors: ['says "shipped"'], mock_tools: [{ tool: 'lookup_order', answer: {}, delay_ms: 60_000 }] });
    const run = await svc.runs.create({ test_versions: [slow.version_id], agent_id: w.agentId, project: 'default' });
    const canceled = await svc.runs.cancel(run.id);
    assert.equal(canceled.status, 'canceled');
    assert.equal((await svc.runs.wait(run.id)).status, 'canceled');
    await assert.rejects(svc.runs.create({ test_versions: ['tstv_nope'], agent_id: w.agentId, project: 'default' }), (e: unknown) => e instanceof ValidationError && e.code === 'unknown_test_version');
  });
});
