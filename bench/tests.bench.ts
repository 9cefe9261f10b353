// Test authoring: list latency at the head vs deep into 200k tests, and PATCH throughput.
// Run: npm run bench -- tests   (TESTS_BENCH_COUNT overrides the 200k fill)
//
// The fill goes straight into SQLite through the server's own seeding path
// (packages/server/src/test-authoring/seed.ts) before the server starts;
// every timed operation is an HTTP request to the real server binary.
import { rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { seedTests } from '../packages/server/src/test-authoring/seed.ts';
import { RelationalStore } from '../packages/server/src/storage/sqlite/connection.ts';
import { client } from '../test/helpers/http.ts';
import { bootstrappedDataDir, startServer } from '../test/helpers/server.ts';

const COUNT = Number(process.env.TESTS_BENCH_COUNT ?? 200_000);
const READS = 300;
const PATCH_LIMIT = { count: 3000, ms: 8000 };
const PAGE = 50;

const { dataDir, admin } = await bootstrappedDataDir();
const fillStarted = performance.now();
const store = RelationalStore.open(dataDir);
const ids = seedTests(store, { organizationId: admin.organization_id, projectId: admin.project_id }, COUNT);
store.close();
const fillSeconds = (performance.now() - fillStarted) / 1000;

const server = await startServer({ dataDir, env: { SVC_RATE_LIMIT_PER_MINUTE: '100000000', SVC_LOG_LEVEL: 'info', SVC_STRICT_RESPONSES: 'false' } });
const api = client(server.url, admin.api_key);

type Stats = { p50: number; p95: number; mean: number };

function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: at(0.5), p95: at(0.95), mean: samples.reduce((a, b) => a + b, 0) / samples.length };
}

/** Latency of list pages at each cursor, READS times each, interleaved so load and warm-up hit them alike. */
async function listLatency(cursors: Array<string | undefined>) {
  const paths = cursors.map((c) => `/api/tests?project=${admin.project_id}&limit=${PAGE}${c ? `&cursor=${c}` : ''}`);
  const samples: number[][] = paths.map(() => []);
  for (let i = 0; i < READS + 20; i++) {
    for (const [j, path] of paths.entries()) {
      const t0 = performance.now();
      const res = await api.get(path);
      if (i >= 20) samples[j]!.push(performance.now() - t0); // the first 20 rounds warm up
      if (res.status !== 200 || res.body.items.length !== PAGE) throw new Error(`unexpected list answer ${res.status}`);
    }
  }
  return samples.map(stats);
}

/** Versions minted per second by `clients` writers, each editing its own test in a chain of PATCHes. */
async function patchThroughput(clients: number) {
  const heads = (await api.get(`/api/tests?project=${admin.project_id}&limit=${clients}`)).body.items as Array<{ id: string; version_id: string }>;
  let minted = 0;
  let conflicts = 0;
  const deadline = performance.now() + PATCH_LIMIT.ms;
  const budget = Math.ceil(PATCH_LIMIT.count / clients);
  const t0 = performance.now();
  await Promise.all(
    heads.map(async (head, w) => {
      let version = head.version_id;
      for (let i = 0; i < budget && performance.now() < deadline; i++) {
        const res = await api.patch(`/api/tests/${head.id}`, { expected_version_id: version, scenario: `Writer ${w} rewrite ${i} at ${Date.now()}` });
        if (res.status === 200) {
          minted++;
          version = res.body.version_id;
        } else if (res.status === 409) conflicts++;
        else throw new Error(`PATCH answered ${res.status}: ${res.text}`);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  return { minted, conflicts, seconds, perSecond: minted / seconds };
}

try {
  // ids[PAGE] is the cursor of the last full page: nearly every test is newer than it.
  const [first, middle, deep] = (await listLatency([undefined, ids[Math.floor(COUNT / 2)], ids[PAGE]])) as [Stats, Stats, Stats];
  const one = await patchThroughput(1);
  const eight = await patchThroughput(8);

  const ms = (n: number) => n.toFixed(2);
  console.log(`filled ${COUNT.toLocaleString('en-US')} tests (and their versions) in ${fillSeconds.toFixed(1)} s via the seeding path`);
  console.log(`\nGET /api/tests?limit=${PAGE}, ${READS} sequential requests per page, interleaved (ms)`);
  console.log('page                         p50     p95    mean');
  for (const [label, s] of [['first (no cursor)', first], [`middle (~${(COUNT / 2).toLocaleString('en-US')} deep)`, middle], [`deep (~${(COUNT - 2 * PAGE).toLocaleString('en-US')} deep)`, deep]] as const) {
    console.log(`${label.padEnd(26)} ${ms(s.p50).padStart(6)}  ${ms(s.p95).padStart(6)}  ${ms(s.mean).padStart(6)}`);
  }
  console.log(`ratio deep/first (p50): ${(deep.p50 / first.p50).toFixed(2)}   (mean): ${(deep.mean / first.mean).toFixed(2)}`);
  console.log('\nPATCH /api/tests/:id minting a new version each time');
  console.log('writers  versions  conflicts  seconds  versions/s');
  for (const [n, r] of [[1, one], [8, eight]] as const) {
    console.log(`${String(n).padStart(7)}  ${String(r.minted).padStart(8)}  ${String(r.conflicts).padStart(9)}  ${r.seconds.toFixed(2).padStart(7)}  ${r.perSecond.toFixed(0).padStart(10)}`);
  }
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
