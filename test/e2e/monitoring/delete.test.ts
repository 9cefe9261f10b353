import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../../helpers/emulator.js';
import { assertError } from '../../helpers/http.js';
import { FULL_KEY, MONITOR_KEY, type Stack, allConversations, baseSeed, save, startStack, waitForAgent } from './fixtures.js';

describe('removing a platform_a setup', () => {
  let s: Stack;
  before(async () => {
    s = await startStack(
      baseSeed({
        generate: [
          { agent_id: 'agent_alpha', count: 40, days: 10, seed: 1 },
          { agent_id: 'agent_zeta', count: 10, days: 10, seed: 2 },
        ],
      }),
    );
    await s.api.post('/v1/projects', { name: 'second' });
    assert.equal((await save(s.api, ['agent_alpha'], FULL_KEY)).status, 200);
    assert.equal((await save(s.api, ['agent_zeta'], MONITOR_KEY, 'second')).status, 200);
    await waitForAgent(s.api, 'agent_alpha', 'the first backfill', (a) => a.import_state === 'active');
    await waitForAgent(s.api, 'agent_zeta', 'the second backfill', (a) => a.import_state === 'active', 'second');
  });
  after(() => s.cleanup());

  it('keeps the stored conversations and makes no further platform call with the removed key', async () => {
    const kept = (await allConversations(s.api)).map((c) => c.external_id).sort();
    assert.equal(kept.length, 40);
    // Slow answers for the removed setup's key, so a poll is likely in flight when it is removed.
    await s.emu.addFault({ key_label: 'full', delay_ms: 300 });
    await waitFor('a poll with the key', async () => (await s.emu.requests()).requests.some((r) => r.key_label === 'full' && r.status === 0));

    assert.equal((await s.api.delete('/api/monitoring/platform_a?project=default')).status, 204);
    const { last_seq: removedAt } = await s.emu.requests();
    // The other project's setup keeps being polled: three of its listings prove the scheduler ran on.
    await waitFor('three more polls of the other setup', async () => {
      const { requests } = await s.emu.requests(removedAt);
      return requests.filter((r) => r.key_label === 'monitor' && r.path === '/v1/conversations').length >= 3;
    });
    const { requests } = await s.emu.requests(removedAt);
    assert.deepEqual(requests.filter((r) => r.key_label === 'full'), [], 'no call with the removed setup\'s key');

    assert.deepEqual((await s.api.get('/api/monitoring?project=default')).body, []);
    assert.deepEqual((await allConversations(s.api)).map((c) => c.external_id).sort(), kept, 'conversations are kept');
    assertError(await s.api.delete('/api/monitoring/platform_a?project=default'), 404, 'not_found');
    assert.equal((await allConversations(s.api, 'second')).length, 10, 'the other project is untouched');
  });

  it('imports nothing twice when the setup is saved again', async () => {
    await s.emu.clearFaults();
    assert.equal((await save(s.api, ['agent_alpha'])).status, 200);
    const agent = await waitForAgent(s.api, 'agent_alpha', 'the new backfill', (a) => a.import_state === 'active');
    assert.deepEqual(agent.scan, { scanned: 40, total: 40 });
    const ids = (await allConversations(s.api)).map((c) => c.external_id);
    assert.equal(ids.length, 40);
    assert.equal(new Set(ids).size, 40);
  });
});
