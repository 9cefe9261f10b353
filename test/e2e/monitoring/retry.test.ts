import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Stack, allConversations, baseSeed, save, startStack, waitForAgent } from './fixtures.js';

describe('the importer\'s own retries', () => {
  let s: Stack;
  before(async () => {
    s = await startStack(
      baseSeed({
        conversations: [
          // Incomplete for 4 reads: 3 when listed, then the first automatic retry; the second one stores it.
          { conversation_id: 'conv_late', agent_id: 'agent_alpha', status: 'done', started_ago_secs: 600, incomplete_reads: 4 },
          { conversation_id: 'conv_poisoned', agent_id: 'agent_zeta', status: 'done', started_ago_secs: 60 },
        ],
        generate: [{ agent_id: 'agent_zeta', count: 150, days: 5, seed: 4 }],
      }),
      { SVC_PLATFORM_A_RETRY_BASE_MS: '300' },
    );
  });
  after(() => s.cleanup());

  it('retries an open failure automatically, with growing delays, until the call is complete', async () => {
    assert.equal((await save(s.api, ['agent_alpha'])).status, 200);
    const opened = await waitForAgent(s.api, 'agent_alpha', 'the failure', (a) => a.failures.length === 1);
    assert.equal(opened.import_state, 'degraded');
    const failureId = opened.failures[0].id;
    const retried = await waitForAgent(s.api, 'agent_alpha', 'an automatic retry', (a) => a.failures.length === 0 || a.failures[0].attempts >= 4);
    if (retried.failures.length) assert.equal(retried.failures[0].id, failureId, 'the same failure, read again');
    const healed = await waitForAgent(s.api, 'agent_alpha', 'the failure to resolve itself', (a) => a.failures.length === 0);
    assert.equal(healed.import_state, 'active');
    assert.deepEqual((await allConversations(s.api)).map((c) => c.external_id), ['conv_late']);
    const res = await s.api.post(`/api/monitoring/platform_a/failures/${failureId}/replay?project=default`);
    assert.deepEqual(res.body, { id: failureId, status: 'resolved', write: 'already' });
    const reads = (await s.emu.requests()).requests.filter((r) => r.path === '/v1/conversations/conv_late');
    assert.equal(reads.length, 5, 'three reads when listed, two automatic retries');
    assert.ok(reads[4]!.at_ms - reads[3]!.at_ms >= 4 * 300, 'the second retry waited four times the base');
  });

  it('turns a call whose reads keep failing with 5xx into an import failure instead of blocking the agent', async () => {
    await s.emu.addFault({ path_prefix: '/v1/conversations/conv_poisoned', status: 500 });
    assert.equal((await save(s.api, ['agent_alpha', 'agent_zeta'])).status, 200);
    const agent = await waitForAgent(s.api, 'agent_zeta', 'the poisoned call to become a failure', (a) => a.failures.length === 1 && a.scan.scanned === a.scan.total);
    assert.equal(agent.failures[0].conversation_id, 'conv_poisoned');
    assert.match(agent.failures[0].reason, /^fetch_failed: .*500/);
    const stored = (await allConversations(s.api)).filter((c) => c.platform_agent_id === 'agent_zeta');
    assert.equal(stored.length, 150, 'every other call of the agent is stored');
  });
});
