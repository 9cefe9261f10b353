// Trace ingest throughput: spans/s acknowledged (= committed to DuckDB) end to end,
// beside the same machine's ceilings measured in the same run: protobuf decode
// alone, and DuckDB append alone (the span writer's group commit, no HTTP).
// Each row also gives the CPU time it cost per span (all threads of the process
// doing the work: for end to end, the server's), which the machine's other load
// disturbs less than wall-clock rates; the load average is printed too.
// Usage: npm run bench -- ingest   (BATCHES=N, SENDERS=N to change the load)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import { SpanKind, context, trace } from '@opentelemetry/api';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { decodeOtlpSpans } from '../packages/server/dist/otlp/decode.js';
import { createLogger } from '../packages/server/dist/logging/logger.js';
import { defaultThreads } from '../packages/server/dist/storage/duckdb/connection.js';
import { migrateDuckdb } from '../packages/server/dist/storage/duckdb/migrations.js';
import { SpanWriter } from '../packages/server/dist/traces/writer.js';
import { client } from '../test/helpers/http.js';
import { projectKey } from '../test/helpers/otlp.js';
import { startBootstrappedServer } from '../test/helpers/server.js';

const BATCH = 512;
const BATCHES = Number(process.env.BATCHES ?? 320);
const SENDERS = Number(process.env.SENDERS ?? 16);
const NAMES = ['user_turn', 'agent_turn', 'llm_request', 'tts_request', 'function_tool', 'stt_request'];

/** One batch of realistic voice-agent spans (sessions of 64 spans), recorded by the real SDK. */
function makeBatch(b: number): ReadableSpan[] {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'bench-worker', 'service.version': '1.4.2', 'host.name': 'worker-7' }),
    spanProcessors: [new SimpleSpanProcessor(memory)],
  });
  const tracer = provider.getTracer('livekit-agents', '1.2.0');
  const t0 = Date.now() - 60_000;
  for (let s = 0; s < BATCH / 64; s++) {
    const session = `bench-${b}-${s}`;
    const root = tracer.startSpan('agent_session', { startTime: t0, kind: SpanKind.INTERNAL, attributes: { 'svc.session.id': session, 'lk.agent_name': 'desk' } });
    const ctx = trace.setSpan(context.active(), root);
    for (let i = 1; i < 64; i++) {
      const name = NAMES[i % NAMES.length]!;
      const span = tracer.startSpan(name, {
        startTime: t0 + i * 40,
        attributes: {
          'svc.session.id': session, 'svc.job.id': `AJ_${b}_${s}`, 'svc.room.name': `room-${s}`, 'gen_ai.request.model': 'gpt-4o-mini',
          'lk.response.text': 'Sure, Tuesday at two works. Anything else I can help with?', 'lk.llm_metrics': '{"ttft":0.31,"duration":0.8}', turn: i,
        },
      }, ctx);
      if (i % 8 === 0) span.addEvent('first_token', { 'gen_ai.usage.output_tokens': 12 }, t0 + i * 40 + 5);
      span.end(t0 + i * 40 + 30);
    }
    root.end(t0 + 64 * 40);
  }
  return memory.getFinishedSpans();
}

function rate(spans: number, ms: number): string {
  return `${Math.round(spans / (ms / 1000)).toLocaleString('en-US')} spans/s`;
}

/** CPU time (user + system, every thread) a process has used so far, in microseconds (Linux /proc; 0 elsewhere). */
function cpuMicros(pid: number | 'self'): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000; // clock ticks of 10 ms
  } catch {
    return 0;
  }
}
const perSpan = (micros: number, spans: number) => (micros ? (micros / spans).toFixed(1) : '?');
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const loadBefore = load();

console.log(`preparing ${BATCHES} batches of ${BATCH} spans (official OTLP protobuf serializer, gzip)...`);
const bodies = Array.from({ length: BATCHES }, (_, b) => gzipSync(ProtobufTraceSerializer.serializeRequest(makeBatch(b))!));
const warmup = Array.from({ length: 32 }, (_, b) => gzipSync(ProtobufTraceSerializer.serializeRequest(makeBatch(BATCHES + b))!));
const totalSpans = BATCHES * BATCH;
console.log(`${(bodies.reduce((n, b) => n + b.length, 0) / BATCHES / 1024).toFixed(1)} KiB per gzip batch\n`);

// End to end: the real server, concurrent exporters posting gzip protobuf batches; a 200 means committed.
const { server, admin, cleanup } = await startBootstrappedServer({ env: { SVC_RATE_LIMIT_PER_MINUTE: '10000000', SVC_STRICT_RESPONSES: 'false', ...(process.env.DERIVE_DELAY ? { SVC_TRACE_DERIVE_DELAY_MS: process.env.DERIVE_DELAY } : {}) } });
const key = await projectKey(server, admin);
let acked = 0;
let refused = 0;
// Each exporter posts as the official OTLP/HTTP exporter for Node does: node:http on a keep-alive
// connection of its own (fetch would cost this machine's two cores about 1 ms more CPU per request).
const agent = new http.Agent({ keepAlive: true, maxSockets: SENDERS });
function post(body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${server.url}/v1/traces`, {
      method: 'POST',
      agent,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip', 'content-length': body.length },
    }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
      res.once('error', reject);
    });
    req.once('error', reject);
    req.end(body);
  });
}
/** Posts batches from `SENDERS` concurrent exporters; a 200 means the spans are committed. */
async function send(batches: Buffer[], count: boolean): Promise<void> {
  let next = 0;
  const deadline = Date.now() + 180_000;
  await Promise.all(Array.from({ length: SENDERS }, async () => {
    while (next < batches.length && Date.now() < deadline) {
      const body = batches[next++]!;
      for (let attempt = 0; attempt < 5; attempt++) {
        if ((await post(body)) === 200) {
          if (count) acked += BATCH;
          break;
        }
        if (count) refused++;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }));
}
// Untimed warm-up (JIT, first DuckDB pages) with its own sessions, then the measured run.
await send(warmup, false);
const serverCpu0 = cpuMicros(server.process.pid!);
let t = performance.now();
await send(bodies, true);
const e2eMs = performance.now() - t;
const e2eCpu = cpuMicros(server.process.pid!) - serverCpu0;
const loadDuring = load();
// Conversations are derived from the spans after acknowledgement (deferred while ingest is busy): time until all exist.
const sessions = (BATCHES + warmup.length) * (BATCH / 64);
let derived = 0;
const deriveDeadline = Date.now() + 300_000;
while (Date.now() < deriveDeadline) {
  let cursor: string | null = null;
  derived = 0;
  do {
    const page: any = await client(server.url, key).get(`/api/conversations?source=platform_b&limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    derived += page.body.items.length;
    cursor = page.body.next_cursor;
  } while (cursor);
  if (derived >= sessions) break;
  await new Promise((r) => setTimeout(r, 250));
}
const deriveMs = performance.now() - t - e2eMs;
const stored = await client(server.url, key).get('/health');
agent.destroy();
await cleanup();

// Ceiling 1: decode alone, on one core: what a decoder thread does per request (gunzip, the generated
// protobufjs code, validation, span-store columns). Each result is dropped as the server drops it after
// the commit (holding all of them would make the collector's work, not the decoder's, the figure).
const LIMIT = 64 * 1024 * 1024;
for (const body of warmup) decodeOtlpSpans('protobuf', { body, gzip: true }, LIMIT);
let decodeCpu = cpuMicros('self');
t = performance.now();
let decodedSpans = 0;
for (const body of bodies) decodedSpans += decodeOtlpSpans('protobuf', { body, gzip: true }, LIMIT).count;
const decodeMs = performance.now() - t;
decodeCpu = cpuMicros('self') - decodeCpu;
if (decodedSpans !== totalSpans) throw new Error(`decoded ${decodedSpans} spans, expected ${totalSpans}`);
const decoded = bodies.map((body) => decodeOtlpSpans('protobuf', { body, gzip: true }, LIMIT));

// Ceiling 2: DuckDB append alone: the span writer's group commit on a fresh file, no HTTP, DuckDB set up as the server sets it.
const dir = mkdtempSync(path.join(tmpdir(), 'svc-bench-'));
const instance = await DuckDBInstance.create(path.join(dir, 'analytics.duckdb'), { threads: String(defaultThreads()) });
const setup = await instance.connect();
await migrateDuckdb(setup);
await setup.run(`SET checkpoint_threshold = '256MB'`); // as the server sets it
const writer = await SpanWriter.open(await instance.connect(), { maxQueuedSpans: 1e9, maxCommitSpans: 50_000, log: createLogger('silent') });
let appendCpu = cpuMicros('self');
t = performance.now();
let next = 0;
await Promise.all(Array.from({ length: SENDERS }, async () => {
  while (next < decoded.length) await writer.write({ organizationId: 'org_b', projectId: 'prj_b', spans: decoded[next++]! });
}));
const appendMs = performance.now() - t;
appendCpu = cpuMicros('self') - appendCpu;
await writer.close();
setup.closeSync();
instance.closeSync();
rmSync(dir, { recursive: true, force: true });

const slower = Math.min(totalSpans / (decodeMs / 1000), totalSpans / (appendMs / 1000));
const e2e = acked / (e2eMs / 1000);
console.table([
  { measure: 'protobuf decode alone (gunzip + decode + columns, 1 core)', spans: totalSpans, ms: Math.round(decodeMs), throughput: rate(totalSpans, decodeMs), 'cpu µs/span': perSpan(decodeCpu, totalSpans) },
  { measure: `DuckDB append alone (span writer group commit, ${SENDERS} writers)`, spans: totalSpans, ms: Math.round(appendMs), throughput: rate(totalSpans, appendMs), 'cpu µs/span': perSpan(appendCpu, totalSpans) },
  { measure: `end to end: POST /v1/traces, ${SENDERS} concurrent exporters, acknowledged = committed`, spans: acked, ms: Math.round(e2eMs), throughput: rate(acked, e2eMs), 'cpu µs/span': perSpan(e2eCpu, acked) },
]);
console.log(`load average (1, 5, 15 min): ${loadBefore} at the start, ${loadDuring} after the end-to-end run, ${load()} at the end; ${SENDERS} exporters share the machine with the server`);
console.log(`end to end = ${(e2e / slower * 100).toFixed(0)}% of the slower ceiling; target >= 50,000 spans/s and >= 50%; 503 retries: ${refused}; health ${stored.status}`);
console.log(`conversations derived after the burst: ${derived}/${sessions} sessions, all present ${Math.round(deriveMs)} ms after the last acknowledgement`);
