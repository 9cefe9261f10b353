import { sampleTrace, serialize } from '../../helpers/otlp.js';
import type { LoadStats } from './stats.js';

/** What the mixed workload needs from the world it runs against. */
export interface WorkloadContext {
  url: string;
  adminKey: string;
  /** A project key (trace ingest refuses org-wide keys). */
  ingestKey: string;
  stats: LoadStats;
  /** Date.now() after which every worker stops starting requests. */
  deadline: number;
  /** One test per writer, edited with `expected_version_id`. */
  editTests: Array<{ id: string; expectedVersionId: string }>;
  /** A test version the run worker runs against the example agent. */
  runVersion: string;
  agentId: string;
  /** Trace ids stored so far (the readers read them back). */
  traceIds: string[];
}

/** No worker sends more than this many requests, whatever the deadline (loops are bounded in count and time). */
const MAX_PER_WORKER = 200_000;

/**
 * One timed request. `expected` is the status the workload counts as
 * success; a 429 is counted as rate limited; anything else (or no answer)
 * is an error. Resolves to the parsed body on success.
 */
async function timed(ctx: WorkloadContext, endpoint: string, url: string, init: RequestInit, expected: number): Promise<any> {
  const started = performance.now();
  try {
    const res = await fetch(ctx.url + url, { ...init, signal: AbortSignal.timeout(60_000) });
    const text = await res.text();
    const ms = performance.now() - started;
    if (res.status === expected) {
      ctx.stats.record(endpoint, ms, 'ok');
      return (res.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : text;
    }
    ctx.stats.record(endpoint, ms, res.status === 429 ? 'rate_limited' : { error: `${res.status} ${text.slice(0, 200)}` });
  } catch (err) {
    ctx.stats.record(endpoint, performance.now() - started, { error: `no answer: ${(err as Error).message}` });
  }
  return undefined;
}

const as = (key: string, method = 'GET', body?: unknown): RequestInit => ({
  method,
  headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
  body: body === undefined ? undefined : JSON.stringify(body),
});

async function repeat(ctx: WorkloadContext, step: (n: number) => Promise<void>): Promise<void> {
  for (let n = 0; n < MAX_PER_WORKER && Date.now() < ctx.deadline; n++) await step(n);
}

/** Authenticated reads, one route after the other. */
export function reader(ctx: WorkloadContext, offset: number): Promise<void> {
  const reads: Array<[string, () => string]> = [
    ['GET /api/keys', () => '/api/keys'],
    ['GET /api/tests', () => '/api/tests?project=default&limit=20'],
    ['GET /api/conversations', () => '/api/conversations?project=default&limit=20'],
    ['GET /v1/agents', () => '/v1/agents?projectId=default'],
    ['GET /api/runs', () => '/api/runs?project=default&limit=20'],
    ['GET /api/tests/:id', () => `/api/tests/${ctx.editTests[0]!.id}`],
    ['GET /api/traces/:id', () => `/api/traces/${ctx.traceIds[Math.floor(Math.random() * ctx.traceIds.length)] ?? ctx.traceIds[0]}`],
  ];
  return repeat(ctx, async (n) => {
    const [endpoint, path] = reads[(n + offset) % reads.length]!;
    if (endpoint === 'GET /api/traces/:id' && ctx.traceIds.length === 0) return;
    await timed(ctx, endpoint, path(), as(ctx.adminKey), 200);
  });
}

/** Writes: edits of its own test (a new version each), and every few edits a new test or a new key. */
export function writer(ctx: WorkloadContext, w: number): Promise<void> {
  const test = ctx.editTests[w]!;
  return repeat(ctx, async (n) => {
    const edited = await timed(ctx, 'PATCH /api/tests/:id', `/api/tests/${test.id}`, as(ctx.adminKey, 'PATCH', { expected_version_id: test.expectedVersionId, scenario: `Caller: edit ${n} by writer ${w}.` }), 200);
    if (edited) test.expectedVersionId = edited.version_id;
    if (n % 5 === 0) await timed(ctx, 'POST /api/tests', '/api/tests', as(ctx.adminKey, 'POST', { project: 'default', name: `load w${w} n${n}`, scenario: 'Caller: hi.', expected_behaviors: ['greets'] }), 201);
    if (n % 10 === 0) await timed(ctx, 'POST /api/keys', '/api/keys', as(ctx.adminKey, 'POST', { name: `load w${w} n${n}` }), 201);
  });
}

/** Span ingest: a new 16-span trace per request, OTLP protobuf with the project key. */
export function ingester(ctx: WorkloadContext): Promise<void> {
  return repeat(ctx, async () => {
    const spans = sampleTrace(16);
    const ok = await timed(ctx, 'POST /v1/traces', '/v1/traces', { method: 'POST', headers: { authorization: `Bearer ${ctx.ingestKey}`, 'content-type': 'application/x-protobuf' }, body: serialize.protobuf(spans) }, 200);
    if (ok !== undefined && ctx.traceIds.length < 2000) ctx.traceIds.push(spans[0]!.spanContext().traceId);
  });
}

/** Runs against the example agent, each followed by event polling (`wait=2`) until done; counts the finished runs in `finished`. */
export async function runner(ctx: WorkloadContext, finished: { runs: number }): Promise<void> {
  await repeat(ctx, async () => {
    const run = await timed(ctx, 'POST /api/runs', '/api/runs', as(ctx.adminKey, 'POST', { test_versions: [ctx.runVersion], agent_id: ctx.agentId, project: 'default' }), 201);
    if (!run) return;
    let after = 0;
    // Bounded: a run of one short call has a few dozen events; the deadline also ends the polling.
    for (let polls = 0; polls < 200 && Date.now() < ctx.deadline; polls++) {
      const page = await timed(ctx, 'GET /api/runs/:id/events', `/api/runs/${run.id}/events?after=${after}&wait=2`, as(ctx.adminKey), 200);
      if (!page) return;
      after = page.next;
      if (page.done) {
        finished.runs++;
        return;
      }
    }
  });
}

/** `GET /health` on the load's keep-alive connections, every 100 ms. */
export function healthWatcher(ctx: WorkloadContext): Promise<void> {
  return repeat(ctx, async () => {
    await timed(ctx, 'GET /health', '/health', {}, 200);
    await new Promise((r) => setTimeout(r, 100));
  });
}
