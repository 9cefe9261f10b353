// Import throughput: the real server backfilling 10k platform_a conversations
// from the emulator (a separate process) over loopback.
// Run: npm run bench -- import   (CONVERSATIONS=N overrides the count)
import { startEmulator } from '../test/helpers/emulator.js';
import { client } from '../test/helpers/http.js';
import { startBootstrappedServer } from '../test/helpers/server.js';

const TOTAL = Number(process.env.CONVERSATIONS ?? 10_000);
const AGENTS = ['agent_one', 'agent_two'];
const KEY = 'pa_bench_key_000000001';
const DEADLINE_MS = 15 * 60_000;

const emu = await startEmulator({
  keys: [{ key: KEY, permissions: ['agents_read', 'history_read'], label: 'bench' }],
  agents: AGENTS.map((id, i) => ({ agent_id: id, name: `Bench ${i + 1}`, modality: 'voice' })),
  generate: AGENTS.map((id, i) => ({ agent_id: id, count: TOTAL / AGENTS.length, days: 29, seed: i + 1 })),
});
const { server, admin, cleanup } = await startBootstrappedServer({
  env: { SVC_PLATFORM_A_URL: emu.url, SVC_PLATFORM_A_POLL_MS: '200', SVC_STRICT_RESPONSES: 'false' },
}).catch(async (err: unknown) => {
  await emu.stop();
  throw err;
});
const api = client(server.url, admin.api_key);
try {
  const started = performance.now();
  const saved = await api.put('/api/monitoring/platform_a?project=default', { api_key: KEY, agents: AGENTS.map((id) => ({ id, name: id })) });
  if (saved.status !== 200) throw new Error(`save failed: ${saved.status} ${saved.text}`);
  let firstStored: number | null = null;
  let listed: number | null = null;
  for (;;) {
    const setup = (await api.get('/api/monitoring?project=default')).body[0];
    const scanned = setup.agents.reduce((n: number, a: any) => n + a.scan.scanned, 0);
    const total = setup.agents.reduce((n: number, a: any) => n + a.scan.total, 0);
    if (firstStored === null && scanned > 0) firstStored = performance.now() - started;
    if (listed === null && total === TOTAL) listed = performance.now() - started;
    if (setup.agents.every((a: any) => a.import_state === 'active') && scanned === TOTAL) break;
    if (performance.now() - started > DEADLINE_MS) throw new Error(`not done after ${DEADLINE_MS} ms: ${scanned}/${total}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const seconds = (performance.now() - started) / 1000;
  const { requests } = await emu.requests();
  const fetches = requests.filter((r) => r.path.startsWith('/v1/conversations/')).length;
  const lists = requests.filter((r) => r.path === '/v1/conversations').length;
  const rows = [
    ['conversations imported', String(TOTAL)],
    ['wall time (s)', seconds.toFixed(1)],
    ['throughput (conversations/s)', (TOTAL / seconds).toFixed(0)],
    ['time until all were listed (s)', ((listed ?? 0) / 1000).toFixed(1)],
    ['time to first stored (s)', ((firstStored ?? 0) / 1000).toFixed(1)],
    ['platform list calls', String(lists)],
    ['platform detail reads', String(fetches)],
  ];
  const width = Math.max(...rows.map((r) => r[0]!.length));
  console.log(`${'metric'.padEnd(width)}  value`);
  for (const [name, value] of rows) console.log(`${name!.padEnd(width)}  ${value}`);
} finally {
  await cleanup();
  await emu.stop();
}
