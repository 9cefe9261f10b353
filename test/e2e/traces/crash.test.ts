import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { client } from '../../helpers/http.js';
import { childOf, eventually, hr, projectKey, recordSpans, sampleTrace, serialize } from '../../helpers/otlp.js';
import { type Bootstrap, type TestServer, bootstrappedDataDir, startServer } from '../../helpers/server.js';

/** One short LiveKit-style call: a session with a user turn and an agent turn that measured its latency. */
function call(sessionId: string): ReadableSpan[] {
  return recordSpans((tracer) => {
    const t0 = Date.now() - 10_000;
    const session = tracer.startSpan('agent_session', { startTime: hr(t0), attributes: { 'svc.session.id': sessionId } });
    childOf(tracer, session, 'user_turn', t0 + 100, t0 + 1500, { 'lk.user_transcript': 'Is the shop open today?' });
    const agent = childOf(tracer, session, 'agent_turn', t0 + 1510, t0 + 4000);
    childOf(tracer, agent, 'llm_request', t0 + 1520, t0 + 2200, { 'lk.response.text': 'Yes, until six.', 'lk.llm_metrics': '{"ttft":0.3}' });
    childOf(tracer, agent, 'tts_request', t0 + 1900, t0 + 4000, { 'lk.input_text': 'Yes, until six.', 'lk.tts_metrics': '{"ttfb":0.2}' });
    session.end(hr(t0 + 4100));
  });
}

describe('acknowledged spans survive a crash (SIGKILL right after the 200)', () => {
  let dataDir: string;
  let admin: Bootstrap;
  let server: TestServer;

  before(async () => {
    ({ dataDir, admin } = await bootstrappedDataDir());
    server = await startServer({ dataDir });
  });
  after(async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('every span acknowledged before the kill is there after a restart, and so is the derived conversation', async () => {
    const key = await projectKey(server, admin);
    const batches = Array.from({ length: 16 }, () => sampleTrace(64));
    const sessionId = `crash-${Date.now()}`;
    const conversation = call(sessionId);
    const acknowledged: ReadableSpan[][] = [];
    let killed: Promise<void> | undefined;
    const send = async (spans: ReadableSpan[], last: boolean) => {
      const res = await fetch(`${server.url}/v1/traces`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-protobuf' },
        body: serialize.protobuf(spans),
      });
      if (res.status === 200) acknowledged.push(spans);
      if (last) killed = server.kill(); // at once: the deriver has not run yet
    };
    await Promise.all(batches.map((spans) => send(spans, false)));
    await send(conversation, true);
    await killed;
    assert.equal(acknowledged.length, 17, 'every batch was acknowledged before the kill');

    server = await startServer({ dataDir });
    const api = client(server.url, key);
    for (const spans of acknowledged) {
      const stored = await api.get(`/api/traces/${spans[0]!.spanContext().traceId}`);
      assert.equal(stored.status, 200);
      assert.equal(stored.body.span_count, new Set(spans.map((s) => s.spanContext().spanId)).size);
    }
    const found = await eventually('the conversation derived after the restart', async () => {
      const list = await api.get('/api/conversations?source=platform_b');
      return list.body.items.find((c: { external_id: string }) => c.external_id === sessionId);
    });
    const detail = (await api.get(`/api/conversations/${found.id}`)).body;
    assert.deepEqual(detail.turns.filter((t: { role: string }) => t.role !== 'tool').map((t: { role: string }) => t.role), ['user', 'agent']);
    const answered = detail.turns.find((t: { text: string | null }) => t.text === 'Yes, until six.');
    assert.equal(answered.latency_ms, 600, 'end of user speech (1500) to first audio (1900 + 200 ms TTFB)');
    assert.equal(answered.llm_ttft_ms, 300);
    assert.equal(detail.trace_id, conversation[0]!.spanContext().traceId);
  });
});
