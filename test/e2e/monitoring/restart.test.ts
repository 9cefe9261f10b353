import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../../helpers/emulator.js';
import { client } from '../../helpers/http.js';
import { startServer } from '../../helpers/server.js';
import { type Stack, allConversations, baseSeed, platformASetup, save, startStack, waitForAgent } from './fixtures.js';

describe('platform_a import across a crash', () => {
  let s: Stack;
  before(async () => {
    s = await startStack(baseSeed({ generate: [{ agent_id: 'agent_alpha', count: 700, days: 35, seed: 11 }] }));
    // Slow detail reads: the backfill is still running when the server is killed.
    await s.emu.addFault({ method: 'GET', path_prefix: '/v1/conversations/', delay_ms: 120 });
  });
  after(() => s.cleanup());

  it('resumes after SIGKILL mid-backfill without duplicates or gaps, and without starting over', async () => {
    const expected = await s.emu.conversationIds({ agent_id: 'agent_alpha', within_window: true, status: 'done' });
    assert.equal((await save(s.api, ['agent_alpha'])).status, 200);
    const atKill = await waitForAgent(s.api, 'agent_alpha', 'the backfill to be part-way', (a) => a.scan.total === expected.length && a.scan.scanned >= 150);
    assert.equal(atKill.import_state, 'importing');
    await s.server.kill();
    const { last_seq: killSeq } = await s.emu.requests();

    await s.emu.admin('POST', '/_admin/conversations', { conversation_id: 'conv_while_down', agent_id: 'agent_alpha', status: 'done', start_time_unix: Math.floor(Date.now() / 1000) });
    s.server = await startServer({ dataDir: s.server.dataDir, env: { SVC_PLATFORM_A_URL: s.emu.url, SVC_PLATFORM_A_POLL_MS: '100' } });
    s.api = client(s.server.url, s.admin.api_key);
    const afterRestart = await platformASetup(s.api);
    assert.ok(afterRestart.agents[0].scan.scanned >= atKill.scan.scanned, 'progress survived the crash');

    await s.emu.clearFaults();
    const done = await waitForAgent(s.api, 'agent_alpha', 'the backfill to finish', (a) => a.import_state === 'active' && a.scan.scanned === a.scan.total);
    const stored = (await allConversations(s.api)).map((c) => c.external_id);
    assert.equal(new Set(stored).size, stored.length, 'nothing imported twice');
    const want = [...expected, 'conv_while_down'].sort();
    await waitFor('the conversation that arrived while the server was down', async () => (await allConversations(s.api)).some((c) => c.external_id === 'conv_while_down'));
    assert.deepEqual((await allConversations(s.api)).map((c) => c.external_id).sort(), want, 'nothing skipped');
    assert.equal(done.scan.total, expected.length + 1);

    const { requests } = await s.emu.requests(killSeq);
    const reads = requests.filter((r) => r.path.startsWith('/v1/conversations/')).length;
    const remaining = expected.length - atKill.scan.scanned + 1;
    // At most one batch in flight at the kill is read again; the rest resumes from the durable queue.
    assert.ok(reads <= remaining + 100, `resumed rather than restarted: ${reads} reads for ${remaining} remaining`);
  });
});
