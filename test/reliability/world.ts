import { randomBytes } from 'node:crypto';
import { type EmulatorProcess, startEmulator, waitFor } from '../helpers/emulator.js';
import { client } from '../helpers/http.js';
import { recordSpans, serialize, childOf, hr } from '../helpers/otlp.js';
import { EXAMPLE_AGENT_BIN, MODEL_EMULATOR_BIN, type HelperProcess, startHelper } from '../helpers/runs.js';
import { type Bootstrap, type TestServer, hostCommand, startBootstrappedServer } from '../helpers/server.js';
import { type VoiceListEmulator, startVoiceListEmulator } from '../helpers/voice-list-emulator.js';

type Api = ReturnType<typeof client>;

/** Every resource one project holds, by real id, and the secrets it was given. */
export interface Tenant {
  project: { id: string; name: string };
  /** A distinctive string written into the project's free text (names, scenario, descriptions, transcripts). */
  mark: string;
  key: { id: string; secret: string };
  spareKey: { id: string; secret: string };
  personaId: string;
  test: { id: string; version_id: string };
  suiteId: string;
  agentId: string;
  connectionId: string;
  runId: string;
  traceId: string;
  conversationId: string;
  failureId: string;
  secrets: { connectionToken: string; monitoringKey: string; platformKey: string };
}

/** A server with two populated projects, the emulators it talks to and credentials of every kind. */
export interface World {
  server: TestServer;
  admin: Bootstrap;
  /** The model emulator (its `/_admin/faults` makes the model fail). */
  model: HelperProcess;
  own: Tenant;
  other: Tenant;
  viewer: { userId: string; orgKey: string; projectKey: string; sessionToken: string };
  /** Revoked keys: an admin's org-wide key and a project key. */
  revokedKeys: string[];
  sessionToken: string;
  providerKey: string;
  /** Every secret handed to the server or minted by it. */
  secrets(): string[];
  cleanup(): Promise<void>;
}

const hex = (n: number) => randomBytes(n).toString('hex');
const PLATFORM_AGENTS = { own: 'agent_own', other: 'agent_other' };

async function ok<T = any>(what: string, res: Promise<{ status: number; body: T; text: string }>): Promise<T> {
  const r = await res;
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${r.text}`);
  return r.body;
}

/** A platform_b session whose spans carry the tenant's mark in the user and agent text. */
function markedSpans(mark: string) {
  return recordSpans((tracer) => {
    const t0 = Date.now() - 10_000;
    const root = tracer.startSpan('agent_session', { startTime: hr(t0), attributes: { 'svc.session.id': `session-${mark}`, 'lk.agent_name': `desk-${mark}` } });
    childOf(tracer, root, 'user_turn', t0 + 100, t0 + 900, { 'lk.user_transcript': `Where is order ${mark}?` });
    childOf(tracer, root, 'llm_request', t0 + 1000, t0 + 1400, { 'lk.response.text': `Order ${mark} has shipped.`, 'lk.llm_metrics.ttft': 0.2 });
    root.end(hr(t0 + 2000));
  });
}

interface TenantInput {
  project: { id: string; name: string };
  mark: string;
  /** The example agent's address and the bearer token the connection sends it (only the own tenant's is accepted). */
  agentUrl: string;
  connectionToken: string;
  platformKey: string;
  platformAgent: string;
}

async function seedTenant(api: Api, server: TestServer, input: TenantInput): Promise<Tenant> {
  const { project, mark, agentUrl, platformKey, platformAgent } = input;
  const secrets = { connectionToken: input.connectionToken, monitoringKey: `mk_${hex(16)}`, platformKey };
  const key = await ok('project key', api.post('/api/keys', { name: `key ${mark}`, project_id: project.id }));
  const spareKey = await ok('spare key', api.post('/api/keys', { name: `spare ${mark}`, project_id: project.id }));
  const persona = await ok('persona', api.post('/api/personas', { project: project.id, name: `Persona ${mark}`, description: `Calls about ${mark}` }));
  const test = await ok('test', api.post('/api/tests', {
    project: project.id,
    name: `Test ${mark}`,
    scenario: `Caller: Hello, I am asking about ${mark}.\nCaller: Thanks, goodbye.`,
    expected_behaviors: [`says "${mark}"`],
    personas: [persona.id],
  }));
  const suite = await ok('suite', api.post(`/v1/test-suites?projectId=${project.id}`, { name: `Suite ${mark}`, description: `About ${mark}`, testIds: [test.id] }));
  const agent = await ok('agent', api.post(`/v1/agents?projectId=${project.id}`, { name: `Agent ${mark}`, agentPlatform: 'custom', monitoringApiKey: secrets.monitoringKey }));
  const connection = await ok('connection', api.post(`/v1/agents/${agent.agent.id}/connections?projectId=${project.id}`, {
    name: `Chat ${mark}`,
    connectionType: 'http_chat',
    config: { url: agentUrl, headers: { 'x-tenant': mark } },
    credentials: { bearerToken: secrets.connectionToken },
  }));
  const run = await ok('run', api.post('/api/runs', { project: project.id, test_versions: [test.version_id], agent_id: agent.agent.id, connection_id: connection.connection.id }));
  await waitFor(`run of ${mark} to finish`, async () => ['passed', 'failed', 'error'].includes((await api.get(`/api/runs/${run.id}`)).body.status), 60_000);

  const spans = markedSpans(mark);
  await ok('spans', client(server.url, key.secret).post('/v1/traces', undefined, { raw: serialize.json(spans), contentType: 'application/json' }));
  const traceId = spans[0]!.spanContext().traceId;
  const conversation = await waitFor(`conversation of ${mark}`, async () => (await api.get(`/api/conversations?project=${project.id}&source=platform_b`)).body.items?.[0], 30_000);

  await ok('platform_b setup', api.put(`/api/monitoring/platform_b-agents?project=${project.id}`));
  await ok('platform_a setup', api.put(`/api/monitoring/platform_a?project=${project.id}`, { api_key: platformKey, agents: [{ id: platformAgent, name: platformAgent }] }));
  const failure = await waitFor(`an import failure of ${mark}`, async () => {
    const setups = (await api.get(`/api/monitoring?project=${project.id}`)).body as any[];
    return setups.find((s) => s.platform === 'platform_a')?.agents[0]?.failures[0];
  }, 60_000);
  return {
    project,
    mark,
    key: { id: key.id, secret: key.secret },
    spareKey: { id: spareKey.id, secret: spareKey.secret },
    personaId: persona.id,
    test: { id: test.id, version_id: test.version_id },
    suiteId: suite.testSuite.id,
    agentId: agent.agent.id,
    connectionId: connection.connection.id,
    runId: run.id,
    traceId,
    conversationId: conversation.id,
    failureId: failure.id,
    secrets,
  };
}

/** The platform_a emulator: one key and one voice agent per tenant, each agent with a call that never completes (an import failure). */
function platformSeed(keys: { own: string; other: string }) {
  const stuck = (agent: string) => ({ conversation_id: `conv_stuck_${agent}`, agent_id: agent, status: 'done', started_ago_secs: 3600, incomplete_reads: 1_000_000 });
  return {
    keys: [
      { key: keys.own, permissions: ['agents_read', 'history_read', 'monitor'], label: 'own' },
      { key: keys.other, permissions: ['agents_read', 'history_read', 'monitor'], label: 'other' },
    ],
    agents: [
      { agent_id: PLATFORM_AGENTS.own, name: 'Own Line', modality: 'voice' },
      { agent_id: PLATFORM_AGENTS.other, name: 'Other Line', modality: 'voice' },
    ],
    conversations: [stuck(PLATFORM_AGENTS.own), stuck(PLATFORM_AGENTS.other)],
  };
}

/**
 * Starts the emulators (platform_a, the model, the example agent, a speech
 * provider's voice list) and a server wired to them, then fills the default
 * project ("own") and a second project ("other") with one resource of every
 * kind, and mints a viewer (org-wide and project keys, a session), revoked
 * keys, an admin session and a provider key. The model emulator demands an
 * API key (SVC_LLM_API_KEY), another secret the server holds.
 */
export async function startWorld(env: Record<string, string> = {}): Promise<World> {
  const platformKeys = { own: `pa_${hex(16)}`, other: `pa_${hex(16)}` };
  const providerKey = `el_${hex(16)}`;
  const llmKey = `llm_${hex(16)}`;
  const started: Array<{ stop(): Promise<void> }> = [];
  try {
    const emu: EmulatorProcess = await startEmulator(platformSeed(platformKeys));
    started.push(emu);
    const model: HelperProcess = await startHelper(MODEL_EMULATOR_BIN, [], { SVC_LLM_API_KEY: llmKey }); // it demands the key
    started.push(model);
    const ownMark = `OWN${hex(6)}`;
    const otherMark = `OTHER${hex(6)}`;
    // The example agent accepts the own tenant's token only: the other tenant's run ends in error (a refusal path).
    const tokens = { own: `ct_${hex(16)}`, other: `ct_${hex(16)}` };
    const exampleAgent: HelperProcess = await startHelper(EXAMPLE_AGENT_BIN, ['--token', tokens.own]);
    started.push(exampleAgent);
    const voices: VoiceListEmulator = await startVoiceListEmulator([providerKey]);
    started.push({ stop: () => voices.close() });
    const { server, admin, cleanup } = await startBootstrappedServer({
      env: {
        SVC_PLATFORM_A_URL: emu.url,
        SVC_PLATFORM_A_POLL_MS: '200',
        SVC_LLM_BASE_URL: model.url,
        SVC_LLM_MODEL: 'svc-model-emulator',
        SVC_LLM_API_KEY: llmKey,
        SVC_ELEVENLABS_URL: voices.url,
        SVC_RATE_LIMIT_PER_MINUTE: '1000000',
        ...env,
      },
    });
    started.unshift({ stop: cleanup });
    const api = client(server.url, admin.api_key);
    const otherProject = (await ok('project', api.post('/v1/projects', { name: 'tenant-b' }))).project;
    const [own, other] = await Promise.all([
      seedTenant(api, server, { project: { id: admin.project_id, name: 'default' }, mark: ownMark, agentUrl: exampleAgent.url, connectionToken: tokens.own, platformKey: platformKeys.own, platformAgent: PLATFORM_AGENTS.own }),
      seedTenant(api, server, { project: otherProject, mark: otherMark, agentUrl: exampleAgent.url, connectionToken: tokens.other, platformKey: platformKeys.other, platformAgent: PLATFORM_AGENTS.other }),
    ]);
    await ok('provider key', api.put('/api/provider-keys/elevenlabs', { api_key: providerKey }));
    const viewer = await ok('viewer', api.post('/v1/members', { email: 'viewer@example.com', role: 'viewer' }));
    const viewerOrg = await hostCommand<{ secret: string }>(server.dataDir, ['keys', 'create', '--email', 'viewer@example.com', '--name', 'viewer org']);
    const viewerProject = await hostCommand<{ secret: string }>(server.dataDir, ['keys', 'create', '--email', 'viewer@example.com', '--project', 'default', '--name', 'viewer project']);
    const revoked = [await ok('revoked key', api.post('/api/keys', { name: 'to revoke' })), await ok('revoked project key', api.post('/api/keys', { name: 'to revoke', project_id: 'default' }))];
    for (const key of revoked) await ok('revoke', api.post(`/api/keys/${key.id}/revoke`));
    const session = await hostCommand<{ token: string }>(server.dataDir, ['session', 'create', '--email', 'admin@localhost']);
    const viewerSession = await hostCommand<{ token: string }>(server.dataDir, ['session', 'create', '--email', 'viewer@example.com']);
    return {
      server,
      admin,
      model,
      own,
      other,
      viewer: { userId: viewer.member.userId, orgKey: viewerOrg.secret, projectKey: viewerProject.secret, sessionToken: viewerSession.token },
      revokedKeys: revoked.map((k) => k.secret as string),
      sessionToken: session.token,
      providerKey,
      secrets() {
        const tenants = [own, other].flatMap((t) => [t.key.secret, t.spareKey.secret, ...Object.values(t.secrets)]);
        return [admin.api_key, ...tenants, viewerOrg.secret, viewerProject.secret, ...revoked.map((k) => k.secret as string), session.token, viewerSession.token, providerKey, llmKey];
      },
      async cleanup() {
        for (const s of started) await s.stop();
      },
    };
  } catch (err) {
    for (const s of started) await s.stop().catch(() => undefined);
    throw err;
  }
}
