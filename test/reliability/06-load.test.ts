import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { projectKey } from '../helpers/otlp.js';
import { type RunWorld, startRunWorld } from '../helpers/runs.js';
import { PROFILE, recordFigures } from './figures.js';
import { slowClientAttack } from './load/slow-clients.js';
import { type EndpointFigures, LoadStats, rssMiB } from './load/stats.js';
import { type WorkloadContext, healthWatcher, ingester, reader, runner, writer } from './load/workload.js';

const SOAK_MS = PROFILE === 'full' ? 600_000 : 60_000;
const SLOW_CONNECTIONS = 500;
/** The slow clients start this long into the soak, so they meet a server already under load. */
const ATTACK_AT_MS = 5_000;
// The server's defaults (serve.ts, README): headers within 15 s, the whole request within 60 s.
const HEADERS_TIMEOUT_MS = 15_000;
const REQUEST_TIMEOUT_MS = 60_000;
/** How long the slow clients may stay connected before the test gives up on the server dropping them. */
const SLOW_BOUND_MS = REQUEST_TIMEOUT_MS + 30_000;
/**
 * A /health probe on a new connection waits this long for its answer: half the attack. A starved
 * /health answers nothing while the slow clients hold on; a slow answer is reported, not failed.
 */
const PROBE_TIMEOUT_MS = 30_000;
const SCRIPT = 'Caller: Hi, where is my order 42?\nCaller: Thanks, goodbye.';

const mib = (file: string) => (existsSync(file) ? Math.round((statSync(file).size / 2 ** 20) * 10) / 10 : 0);

describe('suite 6: load and soak (mixed workload, slow clients)', () => {
  let w: RunWorld;

  before(async () => {
    // One organization sends everything: at the default 600/min nearly every request would be a 429,
    // which would hide how the server itself holds up. The limit is raised out of the way.
    w = await startRunWorld({ SVC_RATE_LIMIT_PER_MINUTE: '100000000' });
  });
  after(() => w?.cleanup());

  it(`serves a mixed workload for ${SOAK_MS / 1000} s with no error and bounded memory, and 500 slow clients neither starve /health nor stay`, async () => {
    const ingestKey = await projectKey(w.server, w.admin, 'load-ingest');
    const editTests = [];
    for (let i = 0; i < 3; i++) {
      const t = await w.test({ name: `load edits ${i}`, scenario: 'Caller: hello.', expected_behaviors: ['greets'] });
      editTests.push({ id: t.id, expectedVersionId: t.version_id });
    }
    const runTest = await w.test({ name: 'load run', scenario: SCRIPT, expected_behaviors: ['says "shipped"'], mock_tools: [{ tool: 'lookup_order', answer: { status: 'shipped' } }] });
    const sqliteWal = path.join(w.server.dataDir, 'svc.sqlite-wal');
    const duckdbWal = path.join(w.server.dataDir, 'analytics.duckdb.wal');
    const pid = w.server.process.pid!;
    const start = { rss: rssMiB(pid), sqliteWal: mib(sqliteWal), duckdbWal: mib(duckdbWal) };

    const stats = new LoadStats();
    const began = Date.now();
    const ctx: WorkloadContext = { url: w.server.url, adminKey: w.admin.api_key, ingestKey, stats, deadline: began + SOAK_MS, editTests, runVersion: runTest.version_id, agentId: w.agentId, traceIds: [] };
    const finished = { runs: 0 };
    const rss: number[] = [];
    const sampler = setInterval(() => rss.push(rssMiB(pid)), 1000);

    const load = Promise.all([
      ...[0, 1, 2, 3].map((i) => reader(ctx, i * 2)),
      ...editTests.map((_, i) => writer(ctx, i)),
      ingester(ctx),
      ingester(ctx),
      ingester(ctx),
      runner(ctx, finished),
      runner(ctx, finished),
      healthWatcher(ctx),
    ]);

    // The slow-client attack, inside the soak window; /health is probed on new connections until the last one is dropped.
    await new Promise((r) => setTimeout(r, ATTACK_AT_MS));
    const attack = slowClientAttack({
      port: w.server.port,
      count: SLOW_CONNECTIONS,
      dripMs: 1000,
      boundMs: SLOW_BOUND_MS,
      probeTimeoutMs: PROBE_TIMEOUT_MS,
      // Bodies go to the two routes that read one: a JSON write and OTLP ingest (the larger body limit).
      bodyRequest: (i) =>
        i % 4 === 1
          ? `POST /api/keys HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${w.admin.api_key}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`
          : `POST /v1/traces HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ingestKey}\r\nContent-Type: application/x-protobuf\r\nContent-Length: 100000\r\n\r\n`,
    });
    const [{ slow, probes }] = await Promise.all([attack, load]);
    clearInterval(sampler);
    const elapsedS = (Date.now() - began) / 1000;
    const end = { rss: rssMiB(pid), sqliteWal: mib(sqliteWal), duckdbWal: mib(duckdbWal) };

    const table = stats.table();
    console.table(table);
    const errorRate = stats.errors.length / stats.requests;
    const headerDrops = slow.filter((s) => s.kind === 'headers').map((s) => s.closedAfterMs);
    const bodyDrops = slow.filter((s) => s.kind === 'body').map((s) => s.closedAfterMs);
    const warm = rss[Math.min(rss.length - 1, 10)] ?? start.rss; // after ten seconds of load: caches and JIT settled
    const okProbes = probes.filter((p) => p.status === 200);
    recordFigures('06 load and soak', {
      checks: stats.requests + probes.length + slow.length,
      failures: stats.errors.length + (probes.length - okProbes.length),
      seconds: Math.round(elapsedS),
      requests: stats.requests,
      req_per_s: Math.round(stats.requests / (SOAK_MS / 1000)),
      non_429_error_rate: errorRate,
      rate_limited: stats.rateLimited,
      p99_ms: p99ByClass(table),
      runs_finished: finished.runs,
      rss_start_mib: start.rss,
      rss_warm_mib: warm,
      rss_peak_mib: Math.max(...rss, end.rss),
      rss_end_mib: end.rss,
      sqlite_wal_mib: `${start.sqliteWal} -> ${end.sqliteWal}`,
      duckdb_wal_mib: `${start.duckdbWal} -> ${end.duckdbWal}`,
      health_during_attack: `${okProbes.length}/${probes.length} ok, p99 ${Math.round(percentile(probes.map((p) => p.ms), 0.99))} ms`,
      slow_dropped: `${slow.filter((s) => s.closedAfterMs >= 0 && s.status.includes(' 408 ')).length}/${slow.length} with 408`,
      slow_headers_dropped_s: `${seconds(Math.min(...headerDrops))}-${seconds(Math.max(...headerDrops))}`,
      slow_bodies_dropped_s: `${seconds(Math.min(...bodyDrops))}-${seconds(Math.max(...bodyDrops))}`,
    });

    assert.deepEqual(stats.errors.slice(0, 20), [], `non-429 errors: ${stats.errors.length} of ${stats.requests}`);
    assert.ok(finished.runs > 0, 'runs went through to done while under load');
    const failed = probes.filter((p) => p.status !== 200).map((p) => `${p.at} ms into the attack: ${p.status} ${p.error ?? ''}`);
    assert.ok(probes.length > 0 && failed.length === 0, `/health on a new connection during the attack failed ${failed.length}/${probes.length}: ${failed.join('; ')}`);
    for (const s of slow) {
      assert.ok(s.closedAfterMs >= 0, `a slow ${s.kind} client was still connected after ${SLOW_BOUND_MS} ms`);
      assert.match(s.status, /^HTTP\/1\.1 408 /, `a slow ${s.kind} client was closed with "${s.status}"`);
    }
    // Ordering, not a duration: the header deadline (15 s) ends every trickled head before the request deadline (60 s) ends a body.
    assert.ok(Math.max(...headerDrops) < Math.min(...bodyDrops), `trickled headers (${HEADERS_TIMEOUT_MS} ms deadline) outlived a trickled body (${REQUEST_TIMEOUT_MS} ms)`);
    // Memory: after the warm-up the server's footprint may move but not run away (a leak grows with requests).
    assert.ok(end.rss <= warm * 1.5 + 64, `RSS grew from ${warm} MiB (warm) to ${end.rss} MiB`);
    // The relational WAL is checkpointed back into the database as it goes; it must not grow with the traffic.
    assert.ok(end.sqliteWal <= 64, `svc.sqlite-wal is ${end.sqliteWal} MiB`);
    assert.ok(end.duckdbWal <= 300, `analytics.duckdb.wal is ${end.duckdbWal} MiB (the checkpoint threshold is 256MB)`);
  });
});

/** The worst p99 of each class of endpoint, as one line (the per-endpoint table is printed above). */
function p99ByClass(table: EndpointFigures[]): string {
  const classOf = (endpoint: string) =>
    endpoint === 'GET /health' ? 'health' : endpoint.includes('/events') ? 'event polls' : endpoint === 'POST /v1/traces' ? 'ingest' : endpoint.startsWith('GET') ? 'reads' : 'writes';
  const worst = new Map<string, number>();
  for (const row of table) worst.set(classOf(row.endpoint), Math.max(worst.get(classOf(row.endpoint)) ?? 0, row.p99_ms));
  return ['reads', 'writes', 'ingest', 'event polls', 'health'].map((c) => `${c} ${Math.round(worst.get(c) ?? 0)}`).join(', ');
}

function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

const seconds = (ms: number) => Math.round(ms / 100) / 10;
