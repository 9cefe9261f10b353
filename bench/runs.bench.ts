// Runs: calls per second and event-poll latency with 200 queued calls.
// Run: npm run bench -- runs   (RUNS_BENCH_CALLS overrides 200; RUNS_BENCH_CONCURRENCY the levels, e.g. "4,16")
//
// The server, the model emulator and the example http_chat agent run as
// separate processes on loopback. Each level starts one run of 10 versions ×
// 1 persona × repeat (200 calls, each 2 caller turns, a tool call and a
// judgement), measures calls/s from creation to `run.finished`, and meanwhile
// follows the events with long-polls (wait=30), recording how long after an
// event's `at` the reader holds it (notification latency), plus the latency of
// plain polls (wait=0) of a finished run.
import { rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { client } from '../test/helpers/http.ts';
import { AGENT_TOKEN, EXAMPLE_AGENT_BIN, MODEL_EMULATOR_BIN, startHelper } from '../test/helpers/runs.ts';
import { bootstrappedDataDir, startServer } from '../test/helpers/server.ts';

const CALLS = Number(process.env.RUNS_BENCH_CALLS ?? 200);
const LEVELS = (process.env.RUNS_BENCH_CONCURRENCY ?? '4,16').split(',').map(Number);
const VERSIONS = 10;
const TIME_LIMIT_MS = 240_000;

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { p50: at(0.5), p95: at(0.95), max: sorted.at(-1) ?? NaN };
}

const model = await startHelper(MODEL_EMULATOR_BIN, [], { SVC_LLM_API_KEY: '' });
const agent = await startHelper(EXAMPLE_AGENT_BIN, ['--token', AGENT_TOKEN]);
const rows: string[][] = [];
try {
  for (const level of LEVELS) {
    const { dataDir, admin } = await bootstrappedDataDir();
    const server = await startServer({
      dataDir,
      env: { SVC_LLM_BASE_URL: model.url, SVC_LLM_MODEL: 'bench', SVC_RUN_CONCURRENCY: String(level), SVC_RATE_LIMIT_PER_MINUTE: '100000000', SVC_STRICT_RESPONSES: 'false', SVC_LOG_LEVEL: 'info' },
    });
    try {
      const api = client(server.url, admin.api_key);
      const agentId = (await api.post('/v1/agents?projectId=default', { name: 'bench', agentPlatform: 'custom' })).body.agent.id;
      await api.post(`/v1/agents/${agentId}/connections`, { name: 'chat', connectionType: 'http_chat', config: { url: agent.url }, credentials: { bearerToken: AGENT_TOKEN } });
      const versions: string[] = [];
      for (let i = 0; i < VERSIONS; i++) {
        const test = await api.post('/api/tests', {
          project: 'default',
          name: `bench ${i}`,
          scenario: 'Caller: Hi, where is my order 42?\nCaller: Thanks, goodbye.',
          expected_behaviors: ['says "shipped"', 'calls `lookup_order`'],
          mock_tools: [{ tool: 'lookup_order', answer: { order_id: '42', status: 'shipped' } }],
        });
        versions.push(test.body.version_id);
      }
      const t0 = performance.now();
      const created = await api.post('/api/runs', { project: 'default', test_versions: versions, agent_id: agentId, repeat: CALLS / VERSIONS, concurrency: 50 });
      if (created.status !== 201) throw new Error(created.text);
      const runId = created.body.id as string;

      const notify: number[] = [];
      let after = 0;
      let finishedAt = 0;
      let status = '';
      let events = 0;
      while (performance.now() - t0 < TIME_LIMIT_MS) {
        const res = await api.get(`/api/runs/${runId}/events?after=${after}&wait=30&limit=500`);
        const now = Date.now();
        for (const e of res.body.events) {
          notify.push(now - Date.parse(e.at));
          if (e.type === 'run.finished') {
            finishedAt = performance.now();
            status = e.data.status;
          }
        }
        events += res.body.events.length;
        after = res.body.next;
        if (res.body.done) break;
      }
      if (!finishedAt) throw new Error(`the run did not finish within ${TIME_LIMIT_MS} ms`);
      const seconds = (finishedAt - t0) / 1000;

      const polls: number[] = [];
      for (let i = 0; i < 200; i++) {
        const p0 = performance.now();
        await api.get(`/api/runs/${runId}/events?after=${Math.floor(Math.random() * events)}&limit=100`);
        polls.push(performance.now() - p0);
      }
      const n = stats(notify);
      const p = stats(polls);
      rows.push([
        String(level),
        String(CALLS),
        status,
        seconds.toFixed(1),
        (CALLS / seconds).toFixed(1),
        String(events),
        `${n.p50.toFixed(0)} / ${n.p95.toFixed(0)} / ${n.max.toFixed(0)}`,
        `${p.p50.toFixed(1)} / ${p.p95.toFixed(1)}`,
      ]);
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
} finally {
  await Promise.all([model.stop(), agent.stop()]);
}

const header = ['SVC_RUN_CONCURRENCY', 'calls', 'run', 'seconds', 'calls/s', 'events', 'long-poll delivery ms p50/p95/max', 'poll (wait=0) ms p50/p95'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
console.log(line(header));
for (const r of rows) console.log(line(r));
