// Suite 2, bad input fuzz: requests generated from /openapi.json's request
// schemas and broken on purpose (wrong types, missing and extra fields, huge
// and nasty strings, edge numbers, deep nesting, bad ids and encodings,
// duplicated query parameters), plus mutated, truncated and bomb-sized trace
// exports. Rules: no 5xx, every refusal in the error shape, memory bounded.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { FULL_KEY, baseSeed } from '../e2e/monitoring/fixtures.js';
import { type EmulatorProcess, startEmulator } from '../helpers/emulator.js';
import { client } from '../helpers/http.js';
import { type Bootstrap, type TestServer, startBootstrappedServer } from '../helpers/server.js';
import { type VoiceListEmulator, startVoiceListEmulator } from '../helpers/voice-list-emulator.js';
import { PROFILE, recordFigures } from './figures.js';
import { closedPort, seedResources } from './fuzz/fixtures.js';
import { type Verdict, judge, pool, rssBytes, sampleRss, send } from './fuzz/harness.js';
import { gzipBomb, multiMemberBomb, traceCases } from './fuzz/otlp-cases.js';
import { type FuzzCase, operationCases } from './fuzz/requests.js';
import type { IdPool, JsonSchema } from './fuzz/schema-arbitrary.js';
import { tally } from './paced.js';

const FULL = PROFILE === 'full';
// SVC_FUZZ_API_REQUESTS / SVC_FUZZ_TRACE_REQUESTS / SVC_FUZZ_SEED reproduce or narrow a run.
const API_REQUESTS = Number(process.env.SVC_FUZZ_API_REQUESTS ?? (FULL ? 60_000 : 10_000));
const TRACE_REQUESTS = Number(process.env.SVC_FUZZ_TRACE_REQUESTS ?? (FULL ? 6_000 : 1_200));
const BATCH = 250;
const CONCURRENCY = 8;
const SEED = Number(process.env.SVC_FUZZ_SEED ?? 20261121);
/**
 * Peak RSS growth allowed: every request's body is capped (1 MiB JSON, 20 MiB
 * trace wire and inflated), so even 8 concurrent worst cases stay far below
 * this; a bomb inflated whole (1 GiB) or a leak of bodies would not.
 */
const RSS_GROWTH_LIMIT = 512 * 1024 * 1024;
const MIB = 1024 * 1024;
/** Defects this suite found, fixed with a regression test each in the ordinary suite (the closing table counts them). */
const DEFECTS_FIXED = [
  'OTLP/JSON attribute values nested deep overflowed the stack: 500 (traces/refusals.test.ts, otlp/decode.test.ts)',
  'platform_a and elevenlabs keys no HTTP header can carry: 503 instead of 422 (monitoring/setup, capabilities/account-voices)',
  'JSON bodies nested deep in free-form members (mock tool answers, connection config): 500 (core/http-errors)',
  'platform_a agent ids with lone surrogates: encodeURIComponent threw, 500 (monitoring/setup)',
  'concurrent commits of a re-sent span failed after the OR IGNORE retry: 503 for a whole group (traces/writer.test.ts)',
];

describe(`suite 2: bad input fuzz (${PROFILE} profile, seed ${SEED})`, () => {
  let server: TestServer;
  let admin: Bootstrap;
  let cleanup: () => Promise<void>;
  let emulator: EmulatorProcess;
  let voices: VoiceListEmulator;
  let document: JsonSchema;
  let ids: IdPool;
  let ingestKey: string;
  let rss: ReturnType<typeof sampleRss>;
  const statuses: number[] = [];
  const mutations: string[] = [];
  const broken: { request: string; why: string }[] = [];
  const figures = {
    checks: 0,
    failures: 0,
    defects_fixed: DEFECTS_FIXED.length,
    requests: 0,
    api_requests: 0,
    trace_requests: 0,
    statuses: '',
    status_5xx: 0,
    unshaped_refusals: 0,
    rss_start_mib: 0,
    peak_rss_growth_mib: 0,
  };

  /** Counts one response against the rules and keeps a few examples of what broke them. */
  const record = (label: string, status: number, verdict: Verdict, mutation: string) => {
    statuses.push(status);
    mutations.push(mutation);
    figures.checks += 1;
    if (verdict.ok) return;
    figures.failures += 1;
    if (status >= 500 || status === 0) figures.status_5xx += 1;
    else figures.unshaped_refusals += 1;
    if (broken.length < 25) broken.push({ request: label, why: verdict.why });
  };

  before(async () => {
    emulator = await startEmulator(baseSeed());
    voices = await startVoiceListEmulator(['el_fuzz_valid_key']);
    ({ server, admin, cleanup } = await startBootstrappedServer({
      env: {
        SVC_RATE_LIMIT_PER_MINUTE: '1000000000', // so 429s never mask what the input does
        SVC_PLATFORM_A_URL: emulator.url,
        SVC_PLATFORM_A_POLL_MS: '5000',
        SVC_ELEVENLABS_URL: voices.url,
        // Runs can be created, but their first model call is refused at once: no agent is ever called.
        SVC_LLM_BASE_URL: `http://127.0.0.1:${await closedPort()}/v1`,
        SVC_LLM_MODEL: 'fuzz',
        SVC_RUN_CONCURRENCY: '1',
      },
    }));
    const openapi = await client(server.url, admin.api_key).get('/openapi.json');
    assert.equal(openapi.status, 200);
    document = openapi.body;
    ({ pool: ids, ingestKey } = await seedResources(server, admin, FULL_KEY));
    rss = sampleRss(server.process.pid!);
    figures.rss_start_mib = Math.round(rss.state.baseline / MIB);
  });

  after(async () => {
    rss?.stop();
    figures.requests = statuses.length;
    figures.statuses = Object.entries(tally(statuses)).map(([s, n]) => `${s}:${n}`).join(' ');
    if (rss) figures.peak_rss_growth_mib = Math.round((rss.state.peak - rss.state.baseline) / MIB);
    recordFigures('02-fuzz', figures);
    for (const b of broken) process.stdout.write(`# broken: ${b.why} <- ${b.request}\n`);
    // The server's own account of what went wrong (errors only; refusals are logged at warn).
    const notable = (l: string) => l.includes('"level":"error"') || (l.includes('"level":"warn"') && !l.includes('"msg":"request"'));
    for (const line of server?.output.filter(notable).slice(0, 10) ?? []) process.stdout.write(`# server: ${line.slice(0, 1000)}\n`);
    await cleanup?.();
    await emulator?.stop();
    await voices?.close();
  });

  it(`${API_REQUESTS} requests generated from the OpenAPI request schemas: no 5xx, every refusal {error, message, details?}`, async () => {
    const operations: fc.Arbitrary<FuzzCase>[] = [];
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, JsonSchema>>)) {
      for (const [method, op] of Object.entries(item)) if (path !== '/v1/traces') operations.push(operationCases(document, method, path, op, ids));
    }
    assert.ok(operations.length >= 50, `${operations.length} operations in /openapi.json`);
    const keys = [admin.api_key, admin.api_key, admin.api_key, ingestKey];
    const arbitrary = fc.tuple(fc.oneof(...operations), fc.constantFrom(...keys));
    for (let batch = 0; batch * BATCH < API_REQUESTS; batch++) {
      const cases = fc.sample(arbitrary, { numRuns: Math.min(BATCH, API_REQUESTS - batch * BATCH), seed: SEED + batch });
      await pool(cases.length, CONCURRENCY, async (i) => {
        const [c, key] = cases[i]!;
        const res = await send(server.url + c.path, { method: c.method, headers: { ...c.headers, authorization: `Bearer ${key}` }, body: c.body });
        const label = `${c.method} ${c.path.slice(0, 200)} [${c.mutation}] ${c.body === undefined ? '' : c.body.slice(0, 200)}`;
        record(label, res.status, judge(res.status, res.contentType, res.body, false), `${c.operation} ${c.mutation}`);
      });
      figures.api_requests += cases.length;
    }
    assert.deepEqual(broken.filter((b) => !b.request.startsWith('POST /v1/traces')), [], 'responses that broke the rules');
    assert.equal(figures.failures, 0);
    assert.ok(statuses.some((s) => s >= 200 && s < 300), 'some generated requests were valid and succeeded');
    assert.ok(statuses.filter((s) => s === 422).length > 0 && statuses.filter((s) => s === 400).length > 0, 'both 400 and 422 refusals were provoked');
  });

  it(`${TRACE_REQUESTS} mutated trace exports (byte flips, truncation, 1 GiB gzip bombs, deep nesting): no 5xx, refusals in the request's format`, async () => {
    const bombs = { single: await gzipBomb(), multi: multiMemberBomb(), oversized: Buffer.alloc(21 * MIB, 0x0a) };
    const before = figures.failures;
    const arbitrary = traceCases(bombs);
    for (let batch = 0; batch * BATCH < TRACE_REQUESTS; batch++) {
      const cases = fc.sample(arbitrary, { numRuns: Math.min(BATCH, TRACE_REQUESTS - batch * BATCH), seed: SEED + 100_000 + batch });
      await pool(cases.length, CONCURRENCY, async (i) => {
        const c = cases[i]!;
        const headers: Record<string, string> = { authorization: `Bearer ${ingestKey}`, 'content-type': c.contentType };
        if (c.contentEncoding) headers['content-encoding'] = c.contentEncoding;
        const res = await send(`${server.url}/v1/traces`, { method: 'POST', headers, body: c.body });
        const protobuf = c.contentType.split(';')[0]!.trim().toLowerCase() === 'application/x-protobuf';
        const label = `POST /v1/traces [${c.mutation}] ${c.contentType} ${c.contentEncoding ?? 'identity'} ${c.body.length} bytes`;
        record(label, res.status, judge(res.status, res.contentType, res.body, protobuf), `POST /v1/traces ${c.mutation}`);
      });
      figures.trace_requests += cases.length;
    }
    const seen = tally(mutations.filter((m) => m.startsWith('POST /v1/traces')));
    assert.ok(seen['POST /v1/traces gzip bomb 1 GiB']! > 0 && seen['POST /v1/traces truncated']! > 0, JSON.stringify(seen));
    assert.equal(figures.failures - before, 0, `trace exports that broke the rules: ${JSON.stringify(broken)}`);
  });

  it('keeps memory bounded and the server healthy', async () => {
    rss.stop();
    const growth = rss.state.peak - rss.state.baseline;
    assert.ok(rss.state.samples > 10, 'RSS was sampled during the fuzz');
    assert.ok(growth < RSS_GROWTH_LIMIT, `peak RSS grew by ${Math.round(growth / MIB)} MiB (limit ${RSS_GROWTH_LIMIT / MIB} MiB)`);
    assert.notEqual(rssBytes(server.process.pid!), null, 'the server process is alive');
    const health = await client(server.url).get('/health');
    assert.equal(health.status, 200, health.text);
    const keys = await client(server.url, admin.api_key).get('/api/keys');
    assert.equal(keys.status, 200, 'an ordinary request still works');
  });
});
