import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { ConflictError, Svc, ValidationError } from '@svc/sdk';
import { runCli } from '../../helpers/cli.js';
import { assertError, client } from '../../helpers/http.js';
import { type Bootstrap, type TestServer, startBootstrappedServer } from '../../helpers/server.js';

const BEARER = 'chat-bearer-7Hq2LmZ0pXv4';
const PLATFORM_KEY = 'pa_live_conn_key_K8s2Wn5R';
const MONITORING_KEY = 'pa_live_monitor_Y6d1Tq9C';
const SECRETS = [BEARER, PLATFORM_KEY, MONITORING_KEY];

const CONNECTION_FIELDS = [
  'id', 'agentId', 'projectId', 'name', 'agentPlatform', 'connectionType', 'accessVariant', 'modality', 'productLabel', 'topology',
  'environment', 'config', 'credentialPresent', 'credentialsHint', 'archived', 'archivedAt', 'createdAt', 'updatedAt',
].sort();

describe('agent connections: sealed credentials, archive and restore, SDK and CLI', () => {
  let server: TestServer;
  let admin: Bootstrap;
  let cleanup: () => Promise<void>;
  let api: ReturnType<typeof client>;
  let svc: Svc;
  let agentId: string;
  const seen: string[] = [];
  const remember = <T extends { text: string }>(res: T) => (seen.push(res.text), res);

  before(async () => {
    ({ server, admin, cleanup } = await startBootstrappedServer());
    api = client(server.url, admin.api_key);
    svc = new Svc({ apiKey: admin.api_key, baseUrl: server.url, maxRetries: 0 });
    const agent = await svc.agents.register({ name: 'Concierge', agentPlatform: 'platform_a', platformAgentId: 'pa_1', monitoringApiKey: MONITORING_KEY }, { projectId: 'default' });
    agentId = agent.id;
  });
  after(() => cleanup());

  it('creates an http_chat connection whose bearer token is sealed and shown only as a hint', async () => {
    const res = remember(
      await api.post(`/v1/agents/${agentId}/connections`, {
        name: 'staging chat',
        connectionType: 'http_chat',
        environment: 'staging',
        config: { url: 'https://agent.example.test/chat', headers: { 'x-tenant': 'acme' } },
        credentials: { bearerToken: BEARER },
      }),
    );
    assert.equal(res.status, 201);
    const c = res.body.connection;
    assert.deepEqual(Object.keys(c).sort(), CONNECTION_FIELDS);
    assert.match(c.id, /^con_/);
    assert.equal(c.agentId, agentId);
    assert.equal(c.projectId, admin.project_id);
    assert.equal(c.agentPlatform, 'platform_a');
    assert.equal(c.accessVariant, 'http_chat.bearer_token');
    assert.equal(c.modality, 'text');
    assert.equal(c.topology, 'svc-dials-in');
    assert.equal(c.productLabel, 'HTTP chat endpoint');
    assert.deepEqual(c.config, { url: 'https://agent.example.test/chat', headers: { 'x-tenant': 'acme' } });
    assert.equal(c.credentialPresent, true);
    assert.equal(c.credentialsHint, 'bearerToken ...pXv4');

    const pa = remember(
      await api.post(`/v1/agents/${agentId}/connections?projectId=default`, {
        name: 'platform chat',
        connectionType: 'platform_a_chat_api',
        modality: 'voice',
        topology: 'agent-dials-out',
        config: { platformAgentId: 'pa_1' },
        credentials: { apiKey: PLATFORM_KEY },
      }),
    );
    assert.equal(pa.status, 201);
    assert.equal(pa.body.connection.accessVariant, 'platform_a_chat_api.api_key');
    assert.equal(pa.body.connection.topology, 'agent-dials-out');
  });

  it('refuses unknown enum values, mismatched variants, missing secrets and secrets in config with 422', async () => {
    const post = (body: Record<string, unknown>) => api.post(`/v1/agents/${agentId}/connections`, { name: 'bad', ...body });
    assertError(await post({ connectionType: 'carrier_pigeon' }), 422, 'validation_failed');
    assertError(await post({ connectionType: 'http_chat', environment: 'qa', config: { url: 'https://x.test' } }), 422, 'validation_failed');
    assertError(await post({ connectionType: 'http_chat', topology: 'sideways', config: { url: 'https://x.test' } }), 422, 'validation_failed');
    assertError(await post({ connectionType: 'http_chat', accessVariant: 'sip.none', config: { url: 'https://x.test' } }), 422, 'validation_failed');
    assertError(await post({ connectionType: 'http_chat', accessVariant: 'http_chat.bearer_token', config: { url: 'https://x.test' } }), 422, 'validation_failed');
    assertError(await post({ connectionType: 'http_chat', config: { url: 'ftp://x.test' } }), 422, 'validation_failed');
    const leaked = await post({ connectionType: 'http_chat', config: { url: 'https://x.test', headers: { Authorization: 'Bearer nope' } } });
    assertError(leaked, 422, 'validation_failed');
    assert.equal(leaked.body.details.issues[0].path, 'config.headers.Authorization');
    assertError(await post({ connectionType: 'platform_a_chat_api', credentials: { apiKey: 'k' } }), 422, 'validation_failed');
    const listed = await api.get(`/v1/agents/${agentId}/connections?includeArchived=true`);
    assert.ok(!listed.body.connections.some((c: { name: string }) => c.name === 'bad'), 'nothing half-written survives');
  });

  it('pages connections and walks archive and restore: rename, name conflict, not archived, agent archived', async () => {
    const created = await svc.connections.create(agentId, { name: 'voice line', connectionType: 'sip', config: { uri: 'sip:agent@example.test' } });
    assert.equal(created.accessVariant, 'sip.none');
    assert.equal(created.credentialPresent, false);
    assert.equal(created.credentialsHint, '');

    const first = await api.get(`/v1/agents/${agentId}/connections?pageSize=2`);
    assert.equal(first.body.connections.length, 2);
    assert.ok(first.body.nextPageToken);
    const second = await api.get(`/v1/agents/${agentId}/connections?pageSize=2&pageToken=${first.body.nextPageToken}`);
    assert.equal(second.body.connections.length, 1);
    assert.equal(second.body.nextPageToken, null);
    assert.deepEqual((await svc.connections.list(agentId, { pageSize: 1 }).toArray()).map((c) => c.name), ['voice line', 'platform chat', 'staging chat']);

    const archived = await svc.connections.archive(agentId, created.id);
    assert.equal(archived.archived, true);
    assert.ok(!(await svc.connections.list(agentId).toArray()).some((c) => c.id === created.id));
    await svc.connections.create(agentId, { name: 'voice line', connectionType: 'phone', config: { number: '+15550100' } });
    await assert.rejects(svc.connections.restore(agentId, created.id), (e: unknown) => e instanceof ConflictError && e.code === 'name_taken');
    const restored = await svc.connections.restore(agentId, created.id, { name: 'voice line (old)' });
    assert.equal(restored.name, 'voice line (old)');
    assert.equal(restored.archivedAt, null);
    assertError(await api.post(`/v1/agents/${agentId}/connections/${created.id}/restore`, {}), 409, 'not_archived');

    await svc.connections.archive(agentId, created.id);
    await svc.agents.archive(agentId);
    assertError(await api.post(`/v1/agents/${agentId}/connections/${created.id}/restore`, {}), 409, 'agent_archived');
    assertError(await api.post(`/v1/agents/${agentId}/connections`, { name: 'late', connectionType: 'phone' }), 409, 'agent_archived');
    assert.equal((await svc.connections.get(agentId, created.id)).archived, true, 'a refused restore changes nothing');
    await svc.agents.restore(agentId);
    assert.equal((await svc.connections.restore(agentId, created.id)).archived, false);
    assertError(await api.post(`/v1/agents/${agentId}/connections/con_nope/restore`, {}), 404, 'not_found');
    await assert.rejects(svc.connections.create(agentId, { name: 'x', connectionType: 'http_chat' }), ValidationError);
  });

  it('drives agents through the CLI: list, archive, restore', async () => {
    const env = { SVC_URL: server.url, SVC_API_KEY: admin.api_key, SVC_PROJECT: 'default' };
    const listed = await runCli(['agents', 'list'], env);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /Concierge/);
    assert.match(listed.stdout, /\.\.\.Tq9C/, "the monitoring key hint");
    const archived = await runCli(['agents', 'archive', agentId, '--json'], env);
    assert.equal(archived.code, 0, archived.stderr);
    assert.equal(JSON.parse(archived.stdout).archived, true);
    const conflict = await runCli(['agents', 'archive', 'agt_missing'], env);
    assert.equal(conflict.code, 4);
    assert.match(conflict.stderr, /not_found/);
    const restored = await runCli(['agents', 'restore', agentId, '--name', 'Concierge 2'], env);
    assert.equal(restored.code, 0, restored.stderr);
    assert.match(restored.stdout, /Restored .* as Concierge 2/);
    const notArchived = await runCli(['agents', 'restore', agentId], env);
    assert.equal(notArchived.code, 5, 'a conflict exits 5');
    assert.match(notArchived.stderr, /not_archived/);
    const connections = await runCli(['connections', 'list', agentId, '--json'], env);
    assert.equal(connections.code, 0, connections.stderr);
    assert.ok(JSON.parse(connections.stdout).connections.length >= 3);
  });

  it('never returns or logs a secret, and keeps only ciphertext in the SQLite files', async () => {
    remember(await api.get(`/v1/agents/${agentId}/connections?includeArchived=true`));
    remember(await api.get(`/v1/agents/${agentId}`));
    for (const text of seen) for (const secret of SECRETS) assert.ok(!text.includes(secret), 'no response carries a secret');
    const log = server.output.join('\n');
    for (const secret of SECRETS) assert.ok(!log.includes(secret), 'no log line carries a secret');

    const db = new Database(path.join(server.dataDir, 'svc.sqlite'), { readonly: true });
    const rows = db.prepare('SELECT credentials_sealed FROM agent_connections WHERE credentials_sealed IS NOT NULL').all() as { credentials_sealed: string }[];
    const agent = db.prepare('SELECT monitoring_api_key_sealed FROM agents WHERE id = ?').get(agentId) as { monitoring_api_key_sealed: string };
    db.close();
    assert.equal(rows.length, 2);
    for (const sealed of [...rows.map((r) => r.credentials_sealed), agent.monitoring_api_key_sealed]) assert.match(sealed, /^v1\./);
    for (const file of ['svc.sqlite', 'svc.sqlite-wal']) {
      const full = path.join(server.dataDir, file);
      if (!existsSync(full)) continue;
      const bytes = readFileSync(full).toString('latin1');
      for (const secret of SECRETS) assert.ok(!bytes.includes(secret), `${file} holds no plaintext secret`);
    }
  });

  it('documents each restore endpoint with eight error responses and their codes', async () => {
    const doc = (await api.get('/openapi.json')).body;
    for (const p of ['/v1/agents/{agentId}/restore', '/v1/agents/{agentId}/connections/{connectionId}/restore']) {
      const responses = doc.paths[p].post.responses;
      const errors = Object.keys(responses).filter((s) => Number(s) >= 400);
      assert.deepEqual(errors, ['400', '401', '403', '404', '409', '422', '429', '500'], p);
      assert.ok(responses['409']['x-error-codes'].includes('name_taken'));
      assert.ok(responses['409']['x-error-codes'].includes('not_archived'));
      const params = doc.paths[p].post.parameters;
      for (const param of params) assert.equal(param.schema.minLength, 1, `${p} ${param.name} has min length 1`);
    }
    assert.ok(doc.paths['/v1/agents/{agentId}/connections/{connectionId}/restore'].post.responses['409']['x-error-codes'].includes('agent_archived'));
    assert.deepEqual(doc.components.schemas.AgentPlatform.enum, ['platform_a', 'platform_b_agents', 'custom']);
  });
});
