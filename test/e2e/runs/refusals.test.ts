import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, client } from '../../helpers/http.js';
import { type RunWorld, startRunWorld } from '../../helpers/runs.js';
import { hostCommand, startBootstrappedServer } from '../../helpers/server.js';

const SCRIPT = 'Caller: Hi, where is my order 42?\nCaller: Thanks, goodbye.';

describe('runs: refusals, permissions, tenancy and listing', () => {
  let w: RunWorld;
  let version: string;
  const post = (body: Record<string, unknown>, api = w.api) => api.post('/api/runs', { project: 'default', ...body });

  before(async () => {
    w = await startRunWorld();
    version = (await w.test({ name: 'Base', scenario: SCRIPT, expected_behaviors: ['says "shipped"'], mock_tools: [{ tool: 'lookup_order', answer: { status: 'shipped' } }] })).version_id;
  });
  after(() => w.cleanup());

  it('refuses with 503 llm_not_configured, naming the variables, when no model endpoint is set; nothing is written', async () => {
    const bare = await startBootstrappedServer({ env: { SVC_LLM_BASE_URL: '', SVC_LLM_MODEL: '', SVC_LLM_API_KEY: '' } });
    try {
      const api = client(bare.server.url, bare.admin.api_key);
      const test = await api.post('/api/tests', { name: 't', scenario: SCRIPT, expected_behaviors: ['x'], project: 'default' });
      const agent = await api.post('/v1/agents?projectId=default', { name: 'a', agentPlatform: 'custom' });
      const res = await api.post('/api/runs', { test_versions: [test.body.version_id], agent_id: agent.body.agent.id, project: 'default' });
      assertError(res, 503, 'llm_not_configured');
      for (const name of ['SVC_LLM_BASE_URL', 'SVC_LLM_MODEL', 'SVC_LLM_API_KEY']) assert.match(res.body.message, new RegExp(name));
      assert.deepEqual((await api.get('/api/runs?project=default')).body.items, []);
    } finally {
      await bare.cleanup();
    }
  });

  it('refuses unknown and foreign versions with 422 unknown_test_version; bad bodies with 422 validation_failed', async () => {
    const unknown = await post({ test_versions: [version, 'tstv_doesnotexist'], agent_id: w.agentId });
    assertError(unknown, 422, 'unknown_test_version');
    assert.deepEqual(unknown.body.details.unknown, ['tstv_doesnotexist']);
    const other = (await w.api.post('/v1/projects', { name: 'elsewhere' })).body.project;
    const foreign = await w.api.post('/api/tests', { name: 'Foreign', scenario: SCRIPT, expected_behaviors: ['x'], project: other.id });
    assertError(await post({ test_versions: [foreign.body.version_id], agent_id: w.agentId }), 422, 'unknown_test_version');
    for (const body of [
      { test_versions: [], agent_id: w.agentId },
      { test_versions: [version], agent_id: w.agentId, repeat: 21 },
      { test_versions: [version], agent_id: w.agentId, repeat: 0 },
      { test_versions: [version], agent_id: w.agentId, concurrency: 51 },
      { test_versions: [version, version], agent_id: w.agentId },
      { test_versions: ['tst_notaversion'], agent_id: w.agentId },
      { test_versions: [version], agent_id: w.agentId, extra: true },
    ]) {
      assertError(await post(body), 422, 'validation_failed');
    }
    assert.deepEqual((await w.api.get('/api/runs?project=default')).body.items, [], 'no refused request left a run');
  });

  it('refuses unknown, archived and unsupported agents and connections with 422', async () => {
    assertError(await post({ test_versions: [version], agent_id: 'agt_doesnotexist' }), 422, 'unknown_agent');
    const spare = (await w.api.post('/v1/agents?projectId=default', { name: 'Spare', agentPlatform: 'custom' })).body.agent;
    assertError(await post({ test_versions: [version], agent_id: spare.id }), 422, 'unknown_connection');
    assertError(await post({ test_versions: [version], agent_id: spare.id, connection_id: w.connectionId }), 422, 'unknown_connection');
    const ws = await w.api.post(`/v1/agents/${spare.id}/connections`, { name: 'ws', connectionType: 'websocket', config: { url: 'ws://127.0.0.1:9/ws' } });
    const unsupported = await post({ test_versions: [version], agent_id: spare.id, connection_id: ws.body.connection.id });
    assertError(unsupported, 422, 'connection_unsupported');
    assert.equal(unsupported.body.details.connection_type, 'websocket');

    const chat = await w.api.post(`/v1/agents/${spare.id}/connections`, { name: 'chat', connectionType: 'http_chat', config: { url: w.agent.url } });
    await w.api.post(`/v1/agents/${spare.id}/connections/${chat.body.connection.id}/archive`, {});
    assertError(await post({ test_versions: [version], agent_id: spare.id, connection_id: chat.body.connection.id }), 422, 'archived_connection');
    await w.api.post(`/v1/agents/${spare.id}/archive`, {});
    assertError(await post({ test_versions: [version], agent_id: spare.id }), 422, 'archived_agent');
  });

  it('lets viewers read runs but not create or cancel them', async () => {
    const run = await w.finished((await post({ test_versions: [version], agent_id: w.agentId })).body.id);
    await hostCommand(w.server.dataDir, ['user', 'create', '--email', 'viewer@example.com', '--role', 'viewer']);
    const viewer = client(w.server.url, (await hostCommand<{ secret: string }>(w.server.dataDir, ['keys', 'create', '--email', 'viewer@example.com'])).secret);
    assert.equal((await viewer.get(`/api/runs/${run.id}`)).status, 200);
    assert.equal((await viewer.get(`/api/runs/${run.id}/events`)).status, 200);
    assert.equal((await viewer.get('/api/runs?project=default')).status, 200);
    assertError(await post({ test_versions: [version], agent_id: w.agentId }, viewer), 403, 'not_permitted');
    assertError(await viewer.post(`/api/runs/${run.id}/cancel`, {}), 403, 'not_permitted');
  });

  it('keeps a project key to its project: another project\'s run is 404 by id and absent from lists', async () => {
    const mine = (await post({ test_versions: [version], agent_id: w.agentId })).body;
    const other = (await w.api.get('/v1/projects')).body.projects.find((p: any) => p.name === 'elsewhere');
    const key = await w.api.post('/api/keys', { name: 'elsewhere only', project_id: other.id });
    const outsider = client(w.server.url, key.body.secret);
    assertError(await outsider.get(`/api/runs/${mine.id}`), 404, 'not_found');
    assertError(await outsider.get(`/api/runs/${mine.id}/events`), 404, 'not_found');
    assertError(await outsider.post(`/api/runs/${mine.id}/cancel`, {}), 404, 'not_found');
    assert.deepEqual((await outsider.get('/api/runs')).body.items, []);
    assertError(await outsider.get('/api/runs?project=default'), 403, 'not_permitted');
    assertError(await outsider.post('/api/runs', { test_versions: [version], agent_id: w.agentId }), 422, 'unknown_test_version');
    await w.finished(mine.id);
  });

  it('lists runs newest first in cursor pages, filtered by status and agent, without per-call results', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await post({ test_versions: [version], agent_id: w.agentId })).body.id);
    for (const id of ids) await w.finished(id);
    const first = await w.api.get('/api/runs?project=default&limit=2');
    assert.equal(first.body.items.length, 2);
    assert.deepEqual(first.body.items.map((r: any) => r.id), [ids[2], ids[1]]);
    assert.equal(first.body.items[0].results, undefined);
    assert.equal(first.body.items[0].summary.calls.total, 1);
    const second = await w.api.get(`/api/runs?project=default&limit=2&cursor=${first.body.next_cursor}`);
    assert.equal(second.body.items[0].id, ids[0]);
    const passed = await w.api.get(`/api/runs?project=default&status=passed&agent_id=${w.agentId}&limit=100`);
    assert.ok(passed.body.items.length >= 3 && passed.body.items.every((r: any) => r.status === 'passed' && r.agent_id === w.agentId));
    assert.deepEqual((await w.api.get('/api/runs?project=default&agent_id=agt_other')).body.items, []);
    assertError(await w.api.get('/api/runs?project=default&status=done'), 400, 'invalid_request');
    assertError(await w.api.get('/api/runs/run_doesnotexist'), 404, 'not_found');
  });

  it('documents the runs operations and the Idempotency-Key header in /openapi.json', async () => {
    const doc = (await w.api.get('/openapi.json')).body;
    const create = doc.paths['/api/runs'].post;
    assert.ok(create.parameters.some((p: any) => p.in === 'header' && p.name === 'idempotency-key'));
    assert.ok(create.responses['503']['x-error-codes'].includes('llm_not_configured'));
    assert.ok(doc.paths['/api/runs/{runId}/events'].get.parameters.some((p: any) => p.name === 'wait'));
    assert.ok(doc.components.schemas.RunEvent);
  });
});
