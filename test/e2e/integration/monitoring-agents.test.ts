import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../../helpers/emulator.js';
import { client } from '../../helpers/http.js';
import { childOf, exportSpans, hr, projectKey, protoExporter, recordSpans } from '../../helpers/otlp.js';
import { FULL_KEY, type Stack, baseSeed, platformASetup, save, startStack, waitForAgent } from '../monitoring/fixtures.js';

/** Monitoring wired to the rest of the product: agent records, and span ingest feeding the platform_b setup. */
describe('monitoring across capabilities', () => {
  let s: Stack;
  before(async () => {
    s = await startStack(baseSeed({ generate: [{ agent_id: 'agent_alpha', count: 5, days: 2, seed: 9 }] }));
  });
  after(() => s.cleanup());

  it('saving a platform_a setup gives each chosen agent an svc agent record showing its monitoring', async () => {
    const before = await s.api.get('/v1/agents?projectId=default');
    assert.deepEqual(before.body.agents, []);
    assert.equal((await save(s.api, ['agent_alpha', 'agent_zeta'])).status, 200);
    await waitForAgent(s.api, 'agent_alpha', 'the import to finish', (a) => a.import_state === 'active' && a.last_conversation_at !== null);

    const agents = (await s.api.get('/v1/agents?projectId=default')).body.agents as any[];
    assert.deepEqual(agents.map((a) => a.name).sort(), ['Alpha Billing', 'Zeta Reception'], 'named as on the platform');
    const alpha = agents.find((a) => a.platformAgentId === 'agent_alpha');
    assert.equal(alpha.agentPlatform, 'platform_a');
    assert.equal(alpha.monitoringConfigured, true);
    assert.equal(alpha.pullProductionCalls, true);
    assert.ok(alpha.lastReceivedAt, 'the importer stored its conversations');
    assert.equal(alpha.monitoringKeyPresent, true);
    assert.equal(alpha.monitoringApiKeyHint, `...${FULL_KEY.slice(-4)}`);
    const zeta = agents.find((a) => a.platformAgentId === 'agent_zeta');
    assert.equal(zeta.monitoringConfigured, true);
    assert.equal(zeta.lastReceivedAt, null, 'no conversation of zeta yet');

    assert.equal((await save(s.api, ['agent_alpha'])).status, 200, 're-saving a narrower selection');
    const after = (await s.api.get('/v1/agents?projectId=default')).body.agents as any[];
    assert.equal(after.length, 2, 'no duplicate records on re-save');
    assert.equal(after.find((a) => a.platformAgentId === 'agent_zeta').monitoringConfigured, false, 'zeta is no longer selected');
    assert.equal(after.find((a) => a.platformAgentId === 'agent_alpha').monitoringConfigured, true);

    assert.equal((await s.api.delete('/api/monitoring/platform_a?project=default')).status, 204);
    const removed = (await s.api.get(`/v1/agents/${alpha.id}?projectId=default`)).body.agent;
    assert.equal(removed.monitoringConfigured, false);
    assert.equal(removed.pullProductionCalls, false);
  });

  it('spans ingested by a project key set the platform_b setup\'s last_received_at', async () => {
    const enabled = await s.api.put('/api/monitoring/platform_b-agents?project=default');
    assert.equal(enabled.status, 200);
    assert.equal(enabled.body.last_received_at, null, 'null until the first span arrives');
    const key = await projectKey(s.server, s.admin);
    const spans = recordSpans((tracer) => {
      const t0 = Date.now() - 3000;
      const root = tracer.startSpan('agent_session', { startTime: hr(t0), attributes: { 'svc.session.id': 'live-1' } });
      childOf(tracer, root, 'user_turn', t0 + 10, t0 + 500, { 'lk.user_transcript': 'hi' });
      root.end(hr(t0 + 1000));
    });
    assert.equal((await exportSpans(protoExporter(s.server, key), spans)).code, 0);
    const setup = await waitFor('last_received_at', async () => {
      const res = await client(s.server.url, s.admin.api_key).get('/api/monitoring?project=default');
      const b = res.body.find((x: { platform: string }) => x.platform === 'platform_b_agents');
      if (!b?.last_received_at) throw new Error(JSON.stringify(b));
      return b;
    });
    assert.equal(setup.strategy, 'platform_b_otlp');
    assert.ok(Date.parse(setup.last_received_at) <= Date.now());
    assert.ok(await platformASetup(s.api) === undefined, 'the platform_a setup was deleted above');
  });
});
