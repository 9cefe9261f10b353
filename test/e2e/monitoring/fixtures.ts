import { type EmulatorProcess, startEmulator, waitFor } from '../../helpers/emulator.js';
import { client } from '../../helpers/http.js';
import { type Bootstrap, type TestServer, startBootstrappedServer } from '../../helpers/server.js';

export const FULL_KEY = 'pa_test_full_access_key_0001';
export const AGENTS_ONLY_KEY = 'pa_test_agents_only_key_0002';
export const HISTORY_ONLY_KEY = 'pa_test_history_only_key_0003';
export const MONITOR_KEY = 'pa_test_monitor_key_0004';

/** Keys with each permission set, and a few agents (voice and text) the tests choose from. */
export function baseSeed(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    keys: [
      { key: FULL_KEY, permissions: ['agents_read', 'history_read', 'monitor'], label: 'full' },
      { key: AGENTS_ONLY_KEY, permissions: ['agents_read'], label: 'agents-only' },
      { key: HISTORY_ONLY_KEY, permissions: ['history_read'], label: 'history-only' },
      { key: MONITOR_KEY, permissions: ['agents_read', 'monitor'], label: 'monitor' },
    ],
    agents: [
      { agent_id: 'agent_zeta', name: 'Zeta Reception', modality: 'voice' },
      { agent_id: 'agent_alpha', name: 'Alpha Billing', modality: 'voice' },
      { agent_id: 'agent_text', name: 'Beta Web Chat', modality: 'text' },
      { agent_id: 'agent_mid', name: 'Middle Support', modality: 'voice' },
      { agent_id: 'agent_empty', name: 'Quiet Line', modality: 'voice' },
    ],
    ...extra,
  };
}

/** The emulator and a bootstrapped server polling it every `pollMs`. */
export interface Stack {
  emu: EmulatorProcess;
  server: TestServer;
  admin: Bootstrap;
  api: ReturnType<typeof client>;
  cleanup(): Promise<void>;
}

export async function startStack(seed: Record<string, unknown>, env: Record<string, string> = {}): Promise<Stack> {
  const emu = await startEmulator(seed);
  const { server, admin, cleanup } = await startBootstrappedServer({
    env: { SVC_PLATFORM_A_URL: emu.url, SVC_PLATFORM_A_POLL_MS: '100', SVC_PLATFORM_A_TIMEOUT_MS: '5000', ...env },
  }).catch(async (err: unknown) => {
    await emu.stop();
    throw err;
  });
  const stack: Stack = {
    emu,
    server,
    admin,
    api: client(server.url, admin.api_key),
    async cleanup() {
      await stack.server.stop(); // a test may have replaced the server (restart)
      await cleanup();
      await emu.stop();
    },
  };
  return stack;
}

type Api = ReturnType<typeof client>;

/** The project's platform_a setup from `GET /api/monitoring`. */
export async function platformASetup(api: Api, project = 'default'): Promise<any> {
  const res = await api.get(`/api/monitoring?project=${project}`);
  if (res.status !== 200) throw new Error(`GET /api/monitoring: ${res.status} ${res.text}`);
  return res.body.find((s: { platform: string }) => s.platform === 'platform_a');
}

/** Waits until the agent's row satisfies `ok`, and returns it. */
export function waitForAgent(api: Api, agentId: string, what: string, ok: (agent: any, setup: any) => boolean, project = 'default', timeoutMs = 60_000): Promise<any> {
  return waitFor(
    what,
    async () => {
      const setup = await platformASetup(api, project);
      const agent = setup?.agents.find((a: { id: string }) => a.id === agentId);
      if (agent && ok(agent, setup)) return agent;
      throw new Error(JSON.stringify({ health: setup?.health, agent }));
    },
    timeoutMs,
  );
}

/** Every production conversation of the project (all pages). */
export async function allConversations(api: Api, project = 'default', filter = ''): Promise<any[]> {
  const items: any[] = [];
  let cursor: string | null = null;
  do {
    const res: { status: number; text: string; body: any } = await api.get(`/api/conversations?project=${project}&limit=100${filter}${cursor ? `&cursor=${cursor}` : ''}`);
    if (res.status !== 200) throw new Error(`GET /api/conversations: ${res.status} ${res.text}`);
    items.push(...res.body.items);
    cursor = res.body.next_cursor;
  } while (cursor);
  return items;
}

/** Saves the platform_a setup of a project for some agents with a key. */
export async function save(api: Api, agents: string[], key = FULL_KEY, project = 'default') {
  return api.put(`/api/monitoring/platform_a?project=${project}`, { api_key: key, agents: agents.map((id) => ({ id, name: id })) });
}
