import { sampleTrace, serialize } from '../../helpers/otlp.js';
import type { EditedTest, Ledger, SpanBatch } from './ledger.js';

/** Where one round writes: the running server, the admin key, a project key for ingest, the tests to edit. */
export interface WriteTarget {
  url: string;
  adminKey: string;
  ingestKey: string;
  tests: EditedTest[];
  round: number;
}

/** The longest a worker keeps going in one round, whatever happens (loops are bounded in count and time). */
const MAX_REQUESTS_PER_WORKER = 500;
const REQUEST_TIMEOUT_MS = 15_000;

/** One HTTP call; `null` when no answer came (the kill cut the connection, or it was refused). */
async function send(url: string, init: RequestInit): Promise<{ status: number; body: any } | null> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const text = await res.text();
    const json = (res.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : text;
    return { status: res.status, body: json };
  } catch {
    return null;
  }
}

const jsonInit = (method: string, key: string, body?: unknown): RequestInit => ({
  method,
  headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
  body: body === undefined ? undefined : JSON.stringify(body),
});

/**
 * Runs the concurrent writers of one round — key creation, test edits with
 * `expected_version_id`, span ingest with a project key, and an observer
 * listing imported platform_a conversations — until `stopped()` (the test
 * kills the server meanwhile; a worker also ends at its first unanswered request).
 * `progress.retrying` counts the re-sent batches still waiting for an answer. Every 2xx goes to the ledger.
 * Resolves to the number of requests sent.
 */
export async function writeUntilStopped(t: WriteTarget, ledger: Ledger, stopped: () => boolean, progress: { retrying: number }): Promise<number> {
  let requests = 0;
  const loop = async (step: (n: number) => Promise<boolean>) => {
    for (let n = 0; n < MAX_REQUESTS_PER_WORKER && !stopped(); n++) {
      requests++;
      if (!(await step(n))) return; // no answer: the server is gone
    }
  };
  const unexpected = (what: string, status: number, body: unknown) => ledger.unexpected.push(`${what} ${status} ${JSON.stringify(body).slice(0, 200)}`);

  const createKeys = (w: number) =>
    loop(async (n) => {
      const res = await send(`${t.url}/api/keys`, jsonInit('POST', t.adminKey, { name: `crash-r${t.round}-w${w}-${n}` }));
      if (!res) return (ledger.cut++, false);
      if (res.status === 201) ledger.ackKey(res.body.id, res.body.secret);
      else unexpected('POST /api/keys', res.status, res.body);
      return true;
    });

  const editTest = (test: EditedTest, w: number) =>
    loop(async (n) => {
      const scenario = `Caller: round ${t.round}, edit ${n} by editor ${w}.`;
      const res = await send(`${t.url}/api/tests/${test.id}`, jsonInit('PATCH', t.adminKey, { expected_version_id: test.expectedVersionId, scenario }));
      if (!res) return (ledger.cut++, false);
      if (res.status === 200) {
        ledger.ackVersion(res.body.version_id, { testId: test.id, version: res.body.version, scenario });
        test.expectedVersionId = res.body.version_id;
      } else unexpected(`PATCH /api/tests/${test.id}`, res.status, res.body);
      return true;
    });

  /** Sends one span batch; false when no answer came (it stays unanswered, to be re-sent). */
  const sendBatch = async (batch: SpanBatch): Promise<boolean> => {
    const res = await send(`${t.url}/v1/traces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.ingestKey}`, 'content-type': 'application/x-protobuf' },
      body: batch.body,
    });
    if (res?.status === 200) {
      ledger.ackSpans(batch.traceId, batch.spanIds);
      return true;
    }
    ledger.unanswered.push(batch);
    if (!res) return (ledger.cut++, false);
    unexpected('POST /v1/traces', res.status, res.body);
    return true;
  };

  const ingest = () =>
    loop(async () => {
      const spans = sampleTrace(8);
      return sendBatch({ traceId: spans[0]!.spanContext().traceId, spanIds: spans.map((s) => s.spanContext().spanId), body: serialize.protobuf(spans) });
    });

  // The batches the last kill left without an answer, re-sent at once beside the new traffic, as exporters retry them.
  const retry = ledger.unanswered;
  ledger.unanswered = [];
  progress.retrying = retry.length;
  const resend = () =>
    Promise.all(
      retry.map(async (batch) => {
        if (stopped()) return;
        requests++;
        await sendBatch(batch);
        progress.retrying--;
      }),
    );

  const observeImports = () =>
    loop(async () => {
      const res = await send(`${t.url}/api/conversations?project=default&source=platform_a&limit=100`, jsonInit('GET', t.adminKey));
      if (!res) return false;
      if (res.status === 200) for (const c of res.body.items) ledger.seeConversation(c.external_id);
      else unexpected('GET /api/conversations', res.status, res.body);
      await new Promise((r) => setTimeout(r, 25));
      return true;
    });

  await Promise.all([createKeys(0), createKeys(1), ...t.tests.map((test, w) => editTest(test, w)), ingest(), ingest(), resend(), observeImports()]);
  // A batch the resend loop never reached (the kill came first) is still owed.
  ledger.unanswered.push(...retry.filter((b) => !ledger.spans.has(b.traceId) && !ledger.unanswered.includes(b)));
  return requests;
}

/**
 * Re-sends every span batch still without an answer (after the last
 * restart, with nothing else running); each must now be acknowledged.
 */
export async function resendUnanswered(url: string, ingestKey: string, ledger: Ledger): Promise<number> {
  const batches = ledger.unanswered;
  ledger.unanswered = [];
  await Promise.all(
    batches.map(async (batch) => {
      const res = await send(`${url}/v1/traces`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ingestKey}`, 'content-type': 'application/x-protobuf' },
        body: batch.body,
      });
      if (res?.status !== 200) throw new Error(`re-sending an unanswered span batch after the restart: ${res ? `${res.status} ${JSON.stringify(res.body)}` : 'no answer'}`);
      ledger.ackSpans(batch.traceId, batch.spanIds);
    }),
  );
  return batches.length;
}

/**
 * Resolves once the round has an acknowledged key, test version and span
 * batch, and an imported conversation with every re-sent batch answered
 * (those two get `graceMs` at most: they never hold a round back), or after
 * `boundMs` whatever happened.
 */
export async function acknowledgedEach(ledger: Ledger, progress: { retrying: number }, graceMs: number, boundMs: number): Promise<void> {
  const began = Date.now();
  const w = ledger.round;
  for (let i = 0; i < 100_000 && Date.now() - began < boundMs; i++) {
    const slowOnesDone = (w.conversations.length > 0 && progress.retrying === 0) || Date.now() - began > graceMs;
    if (w.keys.length && w.versions.length && w.traces.length && slowOnesDone) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}
