import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, client } from '../../helpers/http.js';
import { type Bootstrap, type TestServer, hostCommand, startBootstrappedServer } from '../../helpers/server.js';

const AGENT_FIELDS = [
  'id', 'projectId', 'name', 'agentPlatform', 'platformAgentId', 'platformAModality', 'monitoringKeyPresent', 'monitoringApiKeyHint',
  'pullProductionCalls', 'monitoringConfigured', 'lastReceivedAt', 'archived', 'archivedAt', 'createdAt', 'updatedAt',
].sort();

describe('agents: register, list, archive and restore', () => {
  let server: TestServer;
  let admin: Bootstrap;
  let cleanup: () => Promise<void>;
  let api: ReturnType<typeof client>;
  const register = (body: Record<string, unknown>, project = 'default') => api.post(`/v1/agents?projectId=${project}`, body);

  before(async () => {
    ({ server, admin, cleanup } = await startBootstrappedServer());
    api = client(server.url, admin.api_key);
  });
  after(() => cleanup());

  it('registers an agent with every field of the interface and a sealed monitoring key shown as a hint', async () => {
    const res = await register({ name: 'Support line', agentPlatform: 'platform_a', platformAgentId: 'pa_agent_1', monitoringApiKey: 'pa_live_monitoring_9f3k' });
    assert.equal(res.status, 201);
    const agent = res.body.agent;
    assert.deepEqual(Object.keys(agent).sort(), AGENT_FIELDS);
    assert.match(agent.id, /^agt_/);
    assert.equal(agent.projectId, admin.project_id);
    assert.equal(agent.platformAModality, 'voice');
    assert.equal(agent.monitoringKeyPresent, true);
    assert.equal(agent.monitoringApiKeyHint, '...9f3k');
    assert.equal(agent.monitoringConfigured, false);
    assert.equal(agent.pullProductionCalls, false);
    assert.equal(agent.lastReceivedAt, null);
    assert.equal(agent.archived, false);
    assert.equal(agent.archivedAt, null);
    assert.ok(!res.text.includes('pa_live_monitoring'), 'the monitoring key is never returned');
    const fetched = await api.get(`/v1/agents/${agent.id}`);
    assert.deepEqual(fetched.body.agent, agent);

    const custom = await register({ name: 'Web bot', agentPlatform: 'custom' });
    assert.equal(custom.status, 201);
    assert.equal(custom.body.agent.platformAgentId, '');
    assert.equal(custom.body.agent.monitoringKeyPresent, false);
    assert.equal(custom.body.agent.monitoringApiKeyHint, '');
  });

  it('refuses unknown enum values, unknown fields and a platform_a agent without its platform id with 422', async () => {
    const badPlatform = await register({ name: 'x', agentPlatform: 'platform_z' });
    assertError(badPlatform, 422, 'validation_failed');
    assert.equal(badPlatform.body.details.issues[0].path, 'agentPlatform');
    assertError(await register({ name: 'x', agentPlatform: 'custom', platformAModality: 'smell' }), 422, 'validation_failed');
    assertError(await register({ name: 'x', agentPlatform: 'custom', owner: 'me' }), 422, 'validation_failed');
    assertError(await register({ name: 'x', agentPlatform: 'platform_a' }), 422, 'validation_failed');
    assertError(await register({ name: '', agentPlatform: 'custom' }), 422, 'validation_failed');
    const listed = await api.get('/v1/agents?projectId=default&includeArchived=true');
    assert.ok(!listed.body.agents.some((a: { name: string }) => a.name === 'x'), 'nothing half-written survives');
  });

  it('keeps names unique among active agents and needs a project for org-wide credentials', async () => {
    assertError(await register({ name: 'Support line', agentPlatform: 'custom' }), 409, 'name_taken');
    assertError(await api.post('/v1/agents', { name: 'no project', agentPlatform: 'custom' }), 400, 'project_required');
    assertError(await api.get('/v1/agents?projectId='), 400, 'invalid_request');
    assertError(await register({ name: 'y', agentPlatform: 'custom' }, 'no-such-project'), 404, 'not_found');
  });

  it('pages agents newest first with pageSize and nextPageToken', async () => {
    await api.post('/v1/projects', { name: 'paging' });
    for (const n of [1, 2, 3, 4, 5]) assert.equal((await register({ name: `paged ${n}`, agentPlatform: 'custom' }, 'paging')).status, 201);
    const seen: string[] = [];
    let token: string | null = null;
    let pages = 0;
    do {
      const res: { status: number; body: { agents: Array<{ name: string }>; nextPageToken: string | null } } = await api.get(
        `/v1/agents?projectId=paging&pageSize=2${token ? `&pageToken=${token}` : ''}`,
      );
      assert.equal(res.status, 200);
      assert.ok(res.body.agents.length <= 2);
      seen.push(...res.body.agents.map((a) => a.name));
      token = res.body.nextPageToken;
      pages++;
    } while (token);
    assert.equal(pages, 3);
    assert.deepEqual(seen, ['paged 5', 'paged 4', 'paged 3', 'paged 2', 'paged 1']);
    assertError(await api.get('/v1/agents?projectId=paging&pageToken=agt_unknown'), 400, 'invalid_request');
  });

  it('archives, hides, restores under a new name, and refuses name conflicts and active agents', async () => {
    const { body } = await register({ name: 'Seasonal', agentPlatform: 'custom' });
    const id = body.agent.id;
    const archived = await api.post(`/v1/agents/${id}/archive?projectId=default`, {});
    assert.equal(archived.status, 200);
    assert.equal(archived.body.agent.archived, true);
    assert.ok(archived.body.agent.archivedAt);
    const again = await api.post(`/v1/agents/${id}/archive`, {});
    assert.equal(again.body.agent.archivedAt, archived.body.agent.archivedAt, 'archiving twice changes nothing');

    const active = await api.get('/v1/agents?projectId=default');
    assert.ok(!active.body.agents.some((a: { id: string }) => a.id === id), 'archived agents leave the list');
    const all = await api.get('/v1/agents?projectId=default&includeArchived=true');
    assert.ok(all.body.agents.some((a: { id: string; archived: boolean }) => a.id === id && a.archived));

    assert.equal((await register({ name: 'Seasonal', agentPlatform: 'custom' })).status, 201, 'archiving frees the name');
    const taken = await api.post(`/v1/agents/${id}/restore?projectId=default`, {});
    assertError(taken, 409, 'name_taken');
    assert.equal((await api.get(`/v1/agents/${id}`)).body.agent.archived, true, 'a refused restore changes nothing');

    const restored = await api.post(`/v1/agents/${id}/restore?projectId=default`, { name: 'Seasonal 2024' });
    assert.equal(restored.status, 200);
    assert.equal(restored.body.agent.name, 'Seasonal 2024');
    assert.equal(restored.body.agent.archived, false);
    assert.equal(restored.body.agent.archivedAt, null);
    assertError(await api.post(`/v1/agents/${id}/restore`, {}), 409, 'not_archived');
    assertError(await api.post('/v1/agents/agt_nope/restore', {}), 404, 'not_found');
    assertError(await api.post(`/v1/agents/${id}/restore`, { name: 'x', extra: true }), 422, 'validation_failed');
    assertError(await api.post(`/v1/agents/${id}/restore`, { name: 'x'.repeat(5000) }), 400, 'invalid_request');
  });

  it('lets viewers read but not write, and keeps project keys and other projects apart', async () => {
    await hostCommand(server.dataDir, ['user', 'create', '--email', 'viewer@example.com', '--role', 'viewer']);
    const viewer = client(server.url, (await hostCommand<{ secret: string }>(server.dataDir, ['keys', 'create', '--email', 'viewer@example.com'])).secret);
    assert.equal((await viewer.get('/v1/agents?projectId=default')).status, 200);
    assertError(await viewer.post('/v1/agents?projectId=default', { name: 'v', agentPlatform: 'custom' }), 403, 'not_permitted');
    const someone = (await api.get('/v1/agents?projectId=default')).body.agents[0];
    assertError(await viewer.post(`/v1/agents/${someone.id}/archive`, {}), 403, 'not_permitted');

    const other = (await api.post('/v1/projects', { name: 'other' })).body.project;
    const otherAgent = (await register({ name: 'Elsewhere', agentPlatform: 'custom' }, 'other')).body.agent;
    const projectKey = (await api.post('/api/keys', { project_id: admin.project_id })).body.secret;
    const scoped = client(server.url, projectKey);
    const own = await scoped.get('/v1/agents');
    assert.equal(own.status, 200);
    assert.ok(own.body.agents.every((a: { projectId: string }) => a.projectId === admin.project_id));
    assertError(await scoped.get(`/v1/agents?projectId=${other.id}`), 403, 'not_permitted');
    assertError(await scoped.get(`/v1/agents/${otherAgent.id}`), 404, 'not_found');
    assertError(await scoped.post(`/v1/agents/${otherAgent.id}/archive`, {}), 404, 'not_found');
    assertError(await api.get(`/v1/agents/${otherAgent.id}?projectId=default`), 404, 'not_found');
    assert.equal((await api.get(`/v1/agents/${otherAgent.id}`)).status, 200, 'an org-wide key finds it without naming the project');
  });
});
