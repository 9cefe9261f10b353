import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../../helpers/emulator.js';
import { FULL_KEY, type Stack, baseSeed, platformASetup, save, startStack, waitForAgent } from './fixtures.js';

describe('platform_a setup health follows the platform\'s last answer', () => {
  let s: Stack;
  const healthIs = (state: string, what = state, message?: RegExp) =>
    waitFor(`health ${what}`, async () => {
      const setup = await platformASetup(s.api);
      if (setup.health.state === state && (!message || message.test(setup.health.message))) return setup.health;
      throw new Error(JSON.stringify(setup.health));
    });

  before(async () => {
    s = await startStack(baseSeed({ generate: [{ agent_id: 'agent_alpha', count: 20, days: 5 }] }));
    assert.equal((await save(s.api, ['agent_alpha'])).status, 200);
    await waitForAgent(s.api, 'agent_alpha', 'the backfill', (a) => a.import_state === 'active');
  });
  after(() => s.cleanup());

  it('is healthy while the platform answers', async () => {
    const health = await healthIs('healthy');
    assert.ok(health.checked_at);
    assert.equal(typeof health.message, 'string');
  });

  it('turns provider_unavailable on 5xx answers and on an unreachable platform, and recovers', async () => {
    await s.emu.addFault({ status: 503 });
    const down = await healthIs('provider_unavailable', 'provider_unavailable (503)');
    assert.match(down.message, /503/);
    await s.emu.clearFaults();
    await healthIs('healthy', 'healthy again');

    await s.emu.addFault({ status: 500, body: '<html>oops</html>' });
    await healthIs('provider_unavailable', 'provider_unavailable (500, not JSON)');
    await s.emu.clearFaults();
    await healthIs('healthy', 'healthy again');

    await s.emu.addFault({ drop: true });
    const unreachable = await healthIs('provider_unavailable', 'provider_unavailable (unreachable)');
    assert.match(unreachable.message, /unreachable/);
    await s.emu.clearFaults();
    await healthIs('healthy', 'healthy again');
  });

  it('turns rate_limited on 429 and waits Retry-After before the next call', async () => {
    const { last_seq } = await s.emu.requests();
    await s.emu.addFault({ status: 429, retry_after: 2, times: 1 });
    const limited = await healthIs('rate_limited');
    assert.match(limited.message, /2 s/);
    await healthIs('healthy', 'healthy after the wait');
    const { requests } = await s.emu.requests(last_seq);
    const i = requests.findIndex((r) => r.status === 429);
    assert.ok(i >= 0 && requests[i + 1], 'a call followed the 429');
    assert.ok(requests[i + 1]!.at_ms - requests[i]!.at_ms >= 2000, 'no platform call before Retry-After passed');
  });

  it('turns invalid_credential when the key is revoked (401) or loses a permission (403)', async () => {
    await s.emu.admin('DELETE', `/_admin/keys/${FULL_KEY}`);
    await healthIs('invalid_credential', 'invalid_credential (401)', /401/);
    await s.emu.admin('POST', '/_admin/keys', { key: FULL_KEY, permissions: ['agents_read'], label: 'full' });
    const lacking = await healthIs('invalid_credential', 'invalid_credential (403)', /403/);
    assert.match(lacking.message, /history_read/);
    await s.emu.admin('PATCH', `/_admin/keys/${FULL_KEY}`, { permissions: ['agents_read', 'history_read'] });
    await healthIs('healthy', 'healthy with the permission back');
    const agent = (await platformASetup(s.api)).agents[0];
    assert.equal(agent.import_state, 'active', 'refusals of the whole key open no import failures');
    assert.deepEqual(agent.failures, []);
  });
});
