import { rmSync } from 'node:fs';
import path from 'node:path';
import { type ApiResponse, client } from './http.js';
import { waitFor } from './emulator.js';
import { ROOT } from './paths.js';
import { type HelperProcess, startHelper } from './process.js';
import { type Bootstrap, type TestServer, bootstrappedDataDir, startServer } from './server.js';

export const MODEL_EMULATOR_BIN = path.join(ROOT, 'packages/model-emulator/bin/svc-model-emulator.js');
export const EXAMPLE_AGENT_BIN = path.join(ROOT, 'examples/http-chat-agent/bin/svc-example-agent.js');

export { type HelperProcess, startHelper } from './process.js';
export { waitFor } from './emulator.js';

export const AGENT_TOKEN = 'agent-bearer-Qm4xT9kLw2Zp';

/** Everything a runs test needs: a server pointed at the model emulator, the example agent, an agent with an http_chat connection. */
export interface RunWorld {
  server: TestServer;
  admin: Bootstrap;
  api: ReturnType<typeof client>;
  model: HelperProcess;
  agent: HelperProcess;
  agentId: string;
  connectionId: string;
  /** Creates a test and returns its current version id. */
  test(body: Record<string, unknown>): Promise<{ id: string; version_id: string }>;
  /** `POST /api/runs` against the world's agent in the default project; the response as it came. */
  createRun(versions: string[], extra?: Record<string, unknown>, headers?: Record<string, string>): Promise<ApiResponse>;
  /** Creates a run, insisting on 201; returns the run. */
  startRun(versions: string[], extra?: Record<string, unknown>): Promise<any>;
  /** Polls the run until it is finished (or canceled); returns it. */
  finished(runId: string, timeoutMs?: number): Promise<any>;
  /** Stops the server (SIGKILL: a crash, SIGTERM: a graceful stop) and starts it again on the same data directory; `server` and `api` follow. `env` overrides the server's environment for the new start. Resolves to the exit code of a graceful stop. */
  restart(signal: 'SIGKILL' | 'SIGTERM', env?: Record<string, string>): Promise<number | null>;
  cleanup(): Promise<void>;
}

/** Starts the model emulator, the example agent (bearer-protected) and the server, and registers the agent. */
export async function startRunWorld(env: Record<string, string> = {}): Promise<RunWorld> {
  // An SVC_LLM_API_KEY in the developer's environment must not make the emulator demand it.
  const model = await startHelper(MODEL_EMULATOR_BIN, [], { SVC_LLM_API_KEY: '' });
  const agent = await startHelper(EXAMPLE_AGENT_BIN, ['--token', AGENT_TOKEN]);
  const serverEnv = { SVC_LLM_BASE_URL: model.url, SVC_LLM_MODEL: 'svc-model-emulator', ...env };
  const { dataDir, admin } = await bootstrappedDataDir();
  const server = await startServer({ dataDir, env: serverEnv });
  const api = client(server.url, admin.api_key);
  const registered = await api.post('/v1/agents?projectId=default', { name: 'Order desk', agentPlatform: 'custom' });
  if (registered.status !== 201) throw new Error(registered.text);
  const agentId = registered.body.agent.id as string;
  const conn = await api.post(`/v1/agents/${agentId}/connections`, {
    name: 'chat',
    connectionType: 'http_chat',
    config: { url: agent.url, headers: { 'x-tenant': 'acme' } },
    credentials: { bearerToken: AGENT_TOKEN },
  });
  if (conn.status !== 201) throw new Error(conn.text);
  const world: RunWorld = {
    server,
    admin,
    api,
    model,
    agent,
    agentId,
    connectionId: conn.body.connection.id,
    async test(body) {
      const res = await world.api.post('/api/tests', { project: 'default', ...body });
      if (res.status !== 201) throw new Error(res.text);
      return res.body;
    },
    createRun: (versions, extra = {}, headers = {}) =>
      world.api.post('/api/runs', { test_versions: versions, agent_id: agentId, project: 'default', ...extra }, { headers }),
    async startRun(versions, extra = {}) {
      const res = await world.createRun(versions, extra);
      if (res.status !== 201) throw new Error(`POST /api/runs answered ${res.status}: ${res.text}`);
      return res.body;
    },
    finished: (runId, timeoutMs = 60_000) =>
      waitFor(
        `run ${runId} to finish`,
        async () => {
          const res = await world.api.get(`/api/runs/${runId}`);
          return ['passed', 'failed', 'error', 'canceled'].includes(res.body.status) && res.body;
        },
        timeoutMs,
      ),
    async restart(signal, overrides = {}) {
      const code = signal === 'SIGKILL' ? (await world.server.kill(), null) : await world.server.stop();
      world.server = await startServer({ dataDir, env: { ...serverEnv, ...overrides } });
      world.api = client(world.server.url, admin.api_key);
      return code;
    },
    async cleanup() {
      await world.server.stop();
      rmSync(dataDir, { recursive: true, force: true });
      await Promise.all([model.stop(), agent.stop()]);
    },
  };
  return world;
}

/** Reads every event of a run, `limit` at a time, until `done`; returns the events and the number of reads. */
export async function readAllEvents(api: ReturnType<typeof client>, runId: string, limit = 100, wait = 5): Promise<{ events: any[]; polls: number }> {
  const events: any[] = [];
  let after = 0;
  for (let polls = 1; polls < 10_000; polls++) {
    const res = await api.get(`/api/runs/${runId}/events?after=${after}&limit=${limit}&wait=${wait}`);
    if (res.status !== 200) throw new Error(res.text);
    events.push(...res.body.events);
    after = res.body.next;
    if (res.body.done) return { events, polls };
  }
  throw new Error('the events never reached done');
}
