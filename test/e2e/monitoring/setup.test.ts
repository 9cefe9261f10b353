import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { assertError, client } from '../../helpers/http.js';
import { hostCommand } from '../../helpers/server.js';
import { AGENTS_ONLY_KEY, FULL_KEY, HISTORY_ONLY_KEY, MONITOR_KEY, type Stack, baseSeed, platformASetup, save, startStack } from './fixtures.js';

/** Every byte the server keeps in its data directory. */
function dataFiles(dir: string): Buffer {
  return Buffer.concat(readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => readFileSync(path.join(e.parentPath, e.name))));
}

describe('monitoring setup: discover, save, platform_b record, remove', () => {
  let s: Stack;
  before(async () => {
    s = await startStack(baseSeed());
  });
  after(() => s.cleanup());

  it('discovers the voice agents only, sorted by name, and stores the key nowhere', async () => {
    const res = await s.api.post('/api/monitoring/platform_a/discover?project=default', { api_key: FULL_KEY });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, [
      { id: 'agent_alpha', name: 'Alpha Billing' },
      { id: 'agent_mid', name: 'Middle Support' },
      { id: 'agent_empty', name: 'Quiet Line' },
      { id: 'agent_zeta', name: 'Zeta Reception' },
    ]);
    assert.deepEqual((await s.api.get('/api/monitoring?project=default')).body, [], 'discover saves nothing');
    assert.ok(!dataFiles(s.server.dataDir).includes(FULL_KEY), 'the key is in no data file');
    assert.ok(!s.server.output.join('\n').includes(FULL_KEY), 'the key is in no log line');
  });

  it('refuses keys the platform refuses, with 422 and the missing permission', async () => {
    assertError(await s.api.post('/api/monitoring/platform_a/discover?project=default', { api_key: 'pa_not_a_real_key' }), 422, 'invalid_platform_key');
    const missing = await s.api.post('/api/monitoring/platform_a/discover?project=default', { api_key: HISTORY_ONLY_KEY });
    assertError(missing, 422, 'platform_key_missing_permission');
    assert.deepEqual(missing.body.details.missing, ['agents_read']);
    assertError(await s.api.post('/api/monitoring/platform_a/discover?project=default', {}), 422, 'validation_failed');
    // A key no HTTP header can carry is refused as invalid input, not as the platform being unavailable (was 503).
    for (const api_key of ['pa_ключ', 'pa key', 'pa_\u0000', '\ud800']) {
      assertError(await s.api.post('/api/monitoring/platform_a/discover?project=default', { api_key }), 422, 'validation_failed');
      assertError(await s.api.put('/api/monitoring/platform_a?project=default', { api_key, agents: [{ id: 'agent_alpha', name: 'a' }] }), 422, 'validation_failed');
    }
    const padded = await s.api.post('/api/monitoring/platform_a/discover?project=default', { api_key: ` ${FULL_KEY}\n` });
    assert.equal(padded.status, 200, `surrounding whitespace is trimmed: ${padded.text}`);
    assertError(await s.api.post('/api/monitoring/platform_a/discover', { api_key: FULL_KEY }), 400, 'project_required');
    assertError(await s.api.post('/api/monitoring/platform_a/discover?project=nope', { api_key: FULL_KEY }), 404, 'not_found');
  });

  it('answers the platform\'s rate limit with 429 and Retry-After, and its outage with 503', async () => {
    await s.emu.addFault({ path_prefix: '/v1/agents', status: 429, retry_after: 7, times: 1 });
    const limited = await s.api.post('/api/monitoring/platform_a/discover?project=default', { api_key: FULL_KEY });
    assertError(limited, 429, 'too_many_requests');
    assert.equal(limited.headers.get('retry-after'), '7');
    await s.emu.addFault({ path_prefix: '/v1/agents', status: 503, times: 1 });
    assertError(await s.api.post('/api/monitoring/platform_a/discover?project=default', { api_key: FULL_KEY }), 503, 'provider_unavailable');
    await s.emu.addFault({ path_prefix: '/v1/agents', drop: true, times: 1 });
    assertError(await s.api.post('/api/monitoring/platform_a/discover?project=default', { api_key: FULL_KEY }), 503, 'provider_unavailable');
  });

  it('refuses a save lacking history_read/monitor or agents_read, naming what is missing, and writes nothing', async () => {
    const noHistory = await save(s.api, ['agent_alpha'], AGENTS_ONLY_KEY);
    assertError(noHistory, 422, 'platform_key_missing_permission');
    assert.deepEqual(noHistory.body.details.missing, ['history_read', 'monitor']);
    const noAgents = await save(s.api, ['agent_alpha'], HISTORY_ONLY_KEY);
    assertError(noAgents, 422, 'platform_key_missing_permission');
    assert.deepEqual(noAgents.body.details.missing, ['agents_read']);
    assertError(await save(s.api, ['agent_alpha'], 'pa_unknown_key_123'), 422, 'invalid_platform_key');
    const unknown = await save(s.api, ['agent_alpha', 'agent_nope', 'agent_text']);
    assertError(unknown, 422, 'unknown_platform_agent');
    assert.deepEqual(unknown.body.details, { unknown: ['agent_nope'], not_voice: ['agent_text'] });
    // Lone surrogates cannot be put in a URL: such ids are unknown to the platform (this was a 500).
    const surrogates = await save(s.api, ['agent_alpha', '\ud800', 'x\udfffy']);
    assertError(surrogates, 422, 'unknown_platform_agent');
    assert.deepEqual(surrogates.body.details.unknown, ['\ud800', 'x\udfffy']);
    assertError(await s.api.put('/api/monitoring/platform_a?project=default', { api_key: FULL_KEY, agents: [] }), 422, 'validation_failed');
    assertError(await save(s.api, ['agent_alpha', 'agent_alpha']), 422, 'validation_failed');
    assert.deepEqual((await s.api.get('/api/monitoring?project=default')).body, [], 'nothing half-written');
  });

  it('saves with the platform\'s names (a client rename is ignored), a hint only, and replaces the selection on re-save', async () => {
    const res = await s.api.put('/api/monitoring/platform_a?project=default', {
      api_key: MONITOR_KEY,
      agents: [
        { id: 'agent_zeta', name: 'A name the client made up' },
        { id: 'agent_empty', name: 'Quiet Line' },
      ],
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.platform, 'platform_a');
    assert.equal(res.body.strategy, 'platform_a_poll');
    assert.equal(res.body.api_key_hint, `...${MONITOR_KEY.slice(-4)}`);
    assert.ok(!res.text.includes(MONITOR_KEY), 'the key is never returned');
    assert.deepEqual(res.body.agents.map((a: any) => [a.id, a.name]), [['agent_zeta', 'Zeta Reception'], ['agent_empty', 'Quiet Line']]);
    assert.equal(res.body.health.state, 'healthy');
    assert.equal(res.body.last_received_at, null);
    for (const agent of res.body.agents) assert.deepEqual(agent.failures, []);

    const again = await s.api.put('/api/monitoring/platform_a?project=default', { api_key: FULL_KEY, agents: [{ id: 'agent_mid', name: 'x' }, { id: 'agent_zeta', name: 'y' }] });
    assert.equal(again.status, 200);
    assert.deepEqual(again.body.agents.map((a: any) => [a.id, a.name]), [['agent_mid', 'Middle Support'], ['agent_zeta', 'Zeta Reception']]);
    assert.equal(again.body.api_key_hint, `...${FULL_KEY.slice(-4)}`);
    assert.equal(again.body.created_at, res.body.created_at);
    const listed = await platformASetup(s.api);
    assert.deepEqual(listed.agents.map((a: any) => a.id), ['agent_mid', 'agent_zeta']);
    for (const key of [MONITOR_KEY, FULL_KEY]) {
      assert.ok(!dataFiles(s.server.dataDir).includes(key), 'sealed at rest');
      assert.ok(!s.server.output.join('\n').includes(key), 'never logged');
    }
  });

  it('creates the platform_b record without agents, idempotently, and lists it after platform_a', async () => {
    const first = await s.api.put('/api/monitoring/platform_b-agents?project=default');
    assert.equal(first.status, 200);
    assert.equal(first.body.platform, 'platform_b_agents');
    assert.equal(first.body.strategy, 'platform_b_otlp');
    assert.deepEqual(first.body.agents, []);
    assert.equal(first.body.api_key_hint, null);
    assert.equal(first.body.last_received_at, null);
    const second = await s.api.put('/api/monitoring/platform_b-agents?project=default');
    assert.deepEqual(second.body, first.body);
    const list = (await s.api.get('/api/monitoring?project=default')).body;
    assert.deepEqual(list.map((x: any) => x.platform), ['platform_a', 'platform_b_agents']);
  });

  it('lets viewers read but not change anything, and keeps project keys in their project', async () => {
    const viewer = await hostCommand<{ email: string }>(s.server.dataDir, ['user', 'create', '--email', 'viewer@example.com', '--role', 'viewer']);
    const viewerKey = (await hostCommand<{ secret: string }>(s.server.dataDir, ['keys', 'create', '--email', viewer.email])).secret;
    const v = client(s.server.url, viewerKey);
    assert.equal((await v.get('/api/monitoring?project=default')).body.length, 2);
    assertError(await v.post('/api/monitoring/platform_a/discover?project=default', { api_key: FULL_KEY }), 403, 'not_permitted');
    assertError(await v.put('/api/monitoring/platform_a?project=default', { api_key: FULL_KEY, agents: [{ id: 'agent_alpha', name: 'a' }] }), 403, 'not_permitted');
    assertError(await v.put('/api/monitoring/platform_b-agents?project=default'), 403, 'not_permitted');
    assertError(await v.delete('/api/monitoring/platform_a?project=default'), 403, 'not_permitted');

    const other = await s.api.post('/v1/projects', { name: 'other' });
    const otherKey = (await s.api.post('/api/keys', { name: 'other', project_id: other.body.project.id })).body.secret;
    const o = client(s.server.url, otherKey);
    assert.deepEqual((await o.get('/api/monitoring')).body, [], 'the project key sees its own project only');
    assertError(await o.get('/api/monitoring?project=default'), 403, 'not_permitted');
    assertError(await o.delete('/api/monitoring/platform_a?project=default'), 403, 'not_permitted');
    assertError(await s.api.get('/api/monitoring'), 400, 'project_required');
  });

  it('removes setups with 204, then 404', async () => {
    assert.equal((await s.api.delete('/api/monitoring/platform_b-agents?project=default')).status, 204);
    assertError(await s.api.delete('/api/monitoring/platform_b-agents?project=default'), 404, 'not_found');
    assertError(await s.api.delete('/api/monitoring/platform_c?project=default'), 400, 'invalid_request');
    assert.equal((await s.api.delete('/api/monitoring/platform_a?project=default')).status, 204);
    assert.deepEqual((await s.api.get('/api/monitoring?project=default')).body, []);
  });
});
