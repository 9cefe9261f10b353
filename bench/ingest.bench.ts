// Trace ingest throughput: spans/s acknowledged (= committed to DuckDB) end to end,
// beside the same machine's ceilings measured in the same run: protobuf decode
// alone, and DuckDB append alone (the span writer's group commit, no HTTP).
// Usage: npm run bench -- ingest   (BATCHES=N, SENDERS=N to change the load)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import { SpanKind, context, trace } from '@opentelemetry/api';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { decodeProtobufExport } from '../packages/server/dist/otlp/decode-protobuf.js';
import { toRecords } from '../packages/server/dist/otlp/records.js';
import { createLogger } from '../packages/server/dist/logging/logger.js';
import { migrateDuckdb } from '../packages/server/dist/storage/duckdb/migrations.js';
import { SpanWriter } from '../packages/server/dist/traces/writer.js';
import { client } from '../test/helpers/http.js';
import { projectKey } from '../test/helpers/otlp.js';
import { startBootstrappedServer } from '../test/helpers/server.js';

const BATCH = 512;
const BATCHES = Number(process.env.BATCHES ?? 160);
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

console.log(`preparing ${BATCHES} batches of ${BATCH} spans (official OTLP protobuf serializer, gzip)...`);
const bodies = Array.from({ length: BATCHES }, (_, b) => gzipSync(ProtobufTraceSerializer.serializeRequest(makeBatch(b))!));
const totalSpans = BATCHES * BATCH;
console.log(`${(bodies.reduce((n, b) => n + b.length, 0) / BATCHES / 1024).toFixed(1)} KiB per gzip batch\n`);

// Ceiling 1: decode alone (gunzip + generated protobufjs code + span records), one core.
let t = performance.now();
const decoded = bodies.map((body) => toRecords(decodeProtobufExport(gunzipSync(body))).records);
const decodeMs = performance.now() - t;

// Ceiling 2: DuckDB append alone: the span writer's group commit on a fresh file, no HTTP.
const dir = mkdtempSync(path.join(tmpdir(), 'svc-bench-'));
const instance = await DuckDBInstance.create(path.join(dir, 'analytics.duckdb'));
const setup = await instance.connect();
await migrateDuckdb(setup);
await setup.run(`SET checkpoint_threshold = '256MB'`); // as the server sets it
const writer = await SpanWriter.open(await instance.connect(), { maxQueuedSpans: 1e9, maxCommitSpans: 50_000, log: createLogger('silent') });
t = performance.now();
let next = 0;
await Promise.all(Array.from({ length: SENDERS }, async () => {
  while (next < decoded.length) await writer.write({ organizationId: 'org_b', projectId: 'prj_b', records: decoded[next++]! });
}));
const appendMs = performance.now() - t;
await writer.close();
setup.closeSync();
instance.closeSync();
rmSync(dir, { recursive: true, force: true });

// End to end: the real server, concurrent exporters posting gzip protobuf batches; a 200 means committed.
const { server, admin, cleanup } = await startBootstrappedServer({ env: { SVC_RATE_LIMIT_PER_MINUTE: '10000000', SVC_STRICT_RESPONSES: 'false', ...(process.env.DERIVE_DELAY ? { SVC_TRACE_DERIVE_DELAY_MS: process.env.DERIVE_DELAY } : {}) } });
const key = await projectKey(server, admin);
let acked = 0;
let refused = 0;
next = 0;
t = performance.now();
const deadline = Date.now() + 120_000;
await Promise.all(Array.from({ length: SENDERS }, async () => {
  while (next < bodies.length && Date.now() < deadline) {
    const body = bodies[next++]!;
    for (let attempt = 0; attempt < 5; attempt++) {
      const res = await fetch(`${server.url}/v1/traces`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' },
        body,
      });
      await res.arrayBuffer();
      if (res.status === 200) {
        acked += BATCH;
        break;
      }
      refused++;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}));
const e2eMs = performance.now() - t;
const stored = await client(server.url, key).get('/health');
await cleanup();

const slower = Math.min(totalSpans / (decodeMs / 1000), totalSpans / (appendMs / 1000));
const e2e = acked / (e2eMs / 1000);
console.table([
  { measure: 'protobuf decode alone (gunzip + decode + records, 1 core)', spans: totalSpans, ms: Math.round(decodeMs), throughput: rate(totalSpans, decodeMs) },
  { measure: `DuckDB append alone (span writer group commit, ${SENDERS} writers)`, spans: totalSpans, ms: Math.round(appendMs), throughput: rate(totalSpans, appendMs) },
  { measure: `end to end: POST /v1/traces, ${SENDERS} concurrent exporters, acknowledged = committed`, spans: acked, ms: Math.round(e2eMs), throughput: rate(acked, e2eMs) },
]);
console.log(`end to end = ${(e2e / slower * 100).toFixed(0)}% of the slower ceiling; target >= 50,000 spans/s and >= 50%; 503 retries: ${refused}; health ${stored.status}`);
