import assert from 'node:assert/strict';
import { it } from 'node:test';
import { readAllEvents, startRunWorld } from '../../helpers/runs.js';

it('smoke', async () => {
  const w = await startRunWorld();
  try {
    const t = await w.test({ name: 'Order status', scenario: 'Caller wants order status.\nCaller: Hi, where is my order 42?\nCaller: Thanks, goodbye.', expected_behaviors: ['says "shipped"', 'calls `lookup_order`'], mock_tools: [{ tool: 'lookup_order', answer: { order_id: '42', status: 'shipped' } }] });
    const res = await w.api.post('/api/runs', { test_versions: [t.version_id], agent_id: w.agentId, project: 'default' });
    console.log(res.status, JSON.stringify(res.body).slice(0, 500));
    const run = await w.finished(res.body.id);
    console.log(JSON.stringify(run, null, 1));
    const ev = await readAllEvents(w.api, run.id);
    console.log(ev.events.map((e) => `${e.seq} ${e.type}`).join('\n'));
  } finally {
    console.log(w.server.output.filter((l) => !l.includes('"request"')).join('\n'));
    await w.cleanup();
  }
});
