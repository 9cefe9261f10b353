import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConflictError, NotFoundError, Svc, ValidationError } from '@svc/sdk';
import { AGENTS_ONLY_KEY, FULL_KEY, type Stack, baseSeed, startStack, waitForAgent } from './fixtures.js';

describe('SDK: svc.monitoring', () => {
  let s: Stack;
  let svc: Svc;
  const project = 'default';

  before(async () => {
    s = await startStack(
      baseSeed({ conversations: [{ conversation_id: 'conv_sdk', agent_id: 'agent_mid', status: 'done', started_ago_secs: 60, incomplete_reads: 1_000_000 }] }),
    );
    svc = new Svc({ baseUrl: s.server.url, apiKey: s.admin.api_key, maxRetries: 0 });
  });
  after(() => s.cleanup());

  it('discovers, saves, lists, enables platform_b and removes', async () => {
    const agents = await svc.monitoring.discoverPlatformA(FULL_KEY, { project });
    assert.deepEqual(agents.map((a) => a.name), ['Alpha Billing', 'Middle Support', 'Quiet Line', 'Zeta Reception']);
    const saved = await svc.monitoring.savePlatformA({ api_key: FULL_KEY, agents: agents.filter((a) => a.id === 'agent_mid') }, { project });
    assert.equal(saved.agents[0]!.name, 'Middle Support');
    const b = await svc.monitoring.enablePlatformB({ project });
    assert.equal(b.strategy, 'platform_b_otlp');
    assert.deepEqual((await svc.monitoring.list({ project })).map((x) => x.platform), ['platform_a', 'platform_b_agents']);
    await svc.monitoring.remove('platform_b-agents', { project });
    await assert.rejects(svc.monitoring.remove('platform_b-agents', { project }), NotFoundError);
  });

  it('throws typed errors carrying the stable code and details', async () => {
    await assert.rejects(svc.monitoring.discoverPlatformA('pa_bogus_key_1234', { project }), (e: unknown) => e instanceof ValidationError && e.code === 'invalid_platform_key');
    await assert.rejects(
      svc.monitoring.savePlatformA({ api_key: AGENTS_ONLY_KEY, agents: [{ id: 'agent_mid', name: 'x' }] }, { project }),
      (e: unknown) => e instanceof ValidationError && e.code === 'platform_key_missing_permission' && JSON.stringify(e.details?.missing) === '["history_read","monitor"]',
    );
  });

  it('replays a failure', async () => {
    const failure = (await waitForAgent(s.api, 'agent_mid', 'the failure', (a) => a.failures.length === 1)).failures[0];
    await assert.rejects(svc.monitoring.replayFailure(failure.id, { project }), (e: unknown) => e instanceof ConflictError && e.code === 'conversation_incomplete');
    await s.emu.admin('PATCH', '/_admin/conversations/conv_sdk', { incomplete_reads: 0 });
    assert.deepEqual(await svc.monitoring.replayFailure(failure.id, { project }), { id: failure.id, status: 'resolved', write: 'written' });
    const [conversation] = (await svc.conversations.list({ project, source: 'platform_a' }).toArray()).filter((c) => c.external_id === 'conv_sdk');
    assert.ok(conversation);
  });
});
