import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { assertError, call, client } from '../../helpers/http.js';
import {
  ExportResultCode, decodeExportResponse, exportSpans, jsonExporter, projectKey, protoExporter, sampleTrace, serialize,
} from '../../helpers/otlp.js';
import { type Bootstrap, type TestServer, startBootstrappedServer } from '../../helpers/server.js';

const ns = (t: [number, number]) => (BigInt(t[0]) * 1_000_000_000n + BigInt(t[1])).toString();
const traceIdOf = (spans: ReadableSpan[]) => spans[0]!.spanContext().traceId;

/** A copy of an SDK span whose ids or times the serializer will put on the wire as given. */
function tamper(span: ReadableSpan, change: { traceId?: string; spanId?: string; endTime?: [number, number] }): ReadableSpan {
  const ctx = { ...span.spanContext(), ...(change.traceId ? { traceId: change.traceId } : {}), ...(change.spanId ? { spanId: change.spanId } : {}) };
  return Object.assign(Object.create(Object.getPrototypeOf(span)), span, { spanContext: () => ctx, ...(change.endTime ? { endTime: change.endTime } : {}) });
}

describe('POST /v1/traces with the official OTLP exporters', () => {
  let server: TestServer;
  let admin: Bootstrap;
  let cleanup: () => Promise<void>;
  let key: string;

  before(async () => {
    ({ server, admin, cleanup } = await startBootstrappedServer());
    key = await projectKey(server, admin);
  });
  after(() => cleanup());

  const storedTrace = async (traceId: string) => client(server.url, key).get(`/api/traces/${traceId}`);

  it('protobuf: stores spans with resource, scope, attributes, events, links, status, kind and exact nanoseconds', async () => {
    const spans = sampleTrace(3);
    const result = await exportSpans(protoExporter(server, key), spans);
    assert.equal(result.code, ExportResultCode.SUCCESS, String(result.error));
    const res = await storedTrace(traceIdOf(spans));
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.span_count, 3);
    assert.equal(res.body.project_id, admin.project_id, 'spans land in the key\'s project');
    assert.equal(res.body.resource['service.name'], 'test-worker');
    const [root] = res.body.spans;
    const sdkRoot = spans.find((s) => s.name === 'agent_session')!;
    assert.equal(root.name, 'agent_session');
    assert.equal(root.kind, 'server');
    assert.equal(root.start_time_unix_nano, ns(sdkRoot.startTime), 'nanoseconds kept exactly');
    assert.equal(root.end_time_unix_nano, ns(sdkRoot.endTime));
    assert.equal(root.attributes.n, 7);
    assert.deepEqual(root.scope, { name: 'svc-tests', version: '1.2.3' });
    assert.equal(root.children.length, 2);
    const child = root.children.find((c: { name: string }) => c.name === 'step_0');
    assert.deepEqual(child.status, { code: 'error', message: 'failed 0' });
    assert.equal(child.events[0].name, 'checkpoint');
    assert.equal(child.events[0].attributes.i, 0);
    assert.equal(child.links[0].span_id, sdkRoot.spanContext().spanId);
    assert.equal(child.links[0].attributes.why, 'test');
  });

  it('protobuf with gzip, and OTLP JSON with and without gzip', async () => {
    for (const exporter of [protoExporter(server, key, true), jsonExporter(server, key, false), jsonExporter(server, key, true)]) {
      const spans = sampleTrace(4);
      const result = await exportSpans(exporter, spans);
      assert.equal(result.code, ExportResultCode.SUCCESS, String(result.error));
      const res = await storedTrace(traceIdOf(spans));
      assert.equal(res.body.span_count, 4);
      assert.equal(res.body.spans[0].start_time_unix_nano, ns(spans.find((s) => s.name === 'agent_session')!.startTime));
    }
  });

  it('OTLP JSON: hex ids in either case, int64 as string or number, unknown fields ignored, charset accepted', async () => {
    const traceId = 'ABCDEF0123456789ABCDEF0123456789';
    const body = {
      futureTopLevel: true,
      resourceSpans: [{
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'json-worker' } }], unknownResourceField: 1 },
        scopeSpans: [{
          scope: { name: 'hand-written' },
          spans: [
            { traceId, spanId: 'AAAAAAAAAAAAAAA1', name: 'root', kind: 2, startTimeUnixNano: '1700000000123456789', endTimeUnixNano: 1700000001000000000,
              attributes: [{ key: 'big', value: { intValue: '9007199254740993' } }, { key: 'small', value: { intValue: 42 } }], someNewField: { x: 1 } },
            { traceId: traceId.toLowerCase(), spanId: 'aaaaaaaaaaaaaaa2', parentSpanId: 'AAAAAAAAAAAAAAA1', name: 'child', startTimeUnixNano: '1700000000200000000', endTimeUnixNano: '1700000000300000000' },
          ],
        }],
      }],
    };
    const res = await call(server.url, 'POST', '/v1/traces', { key, raw: JSON.stringify(body), contentType: 'application/json; charset=utf-8' });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, {});
    const stored = await storedTrace(traceId);
    assert.equal(stored.body.trace_id, traceId.toLowerCase());
    const [root] = stored.body.spans;
    assert.equal(root.span_id, 'aaaaaaaaaaaaaaa1');
    assert.equal(root.start_time_unix_nano, '1700000000123456789');
    assert.equal(root.attributes.big, '9007199254740993', 'int64 beyond 2^53 stays exact');
    assert.equal(root.attributes.small, 42);
    assert.equal(root.children[0].name, 'child');
  });

  it('rejects bad spans one by one (partialSuccess) and stores the valid ones exactly once — protobuf', async () => {
    const spans = sampleTrace(3);
    const [a, b, c] = spans as [ReadableSpan, ReadableSpan, ReadableSpan];
    const bad = [
      tamper(a, { traceId: 'ab'.repeat(15), spanId: 'cd'.repeat(8) }),
      tamper(b, { spanId: '0'.repeat(16) }),
      tamper(c, { spanId: 'ef'.repeat(8), endTime: [c.startTime[0] - 1, 0] }),
    ];
    const body = serialize.protobuf([...spans, ...bad]);
    const res = await fetch(`${server.url}/v1/traces`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-protobuf' }, body });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/x-protobuf');
    const partial = decodeExportResponse(await res.arrayBuffer());
    assert.equal(partial?.rejectedSpans, 3);
    assert.match(partial!.errorMessage, /trace id is not 16/);
    assert.match(partial!.errorMessage, /end time is before start time/);
    assert.equal((await storedTrace(traceIdOf(spans))).body.span_count, 3, 'the valid spans, once');
    assert.equal((await storedTrace('ab'.repeat(15) + '00')).status, 404);
  });

  it('partialSuccess in JSON for a JSON request', async () => {
    const spans = sampleTrace(2);
    const body = JSON.parse(serialize.json(spans).toString());
    body.resourceSpans[0].scopeSpans[0].spans.push({ traceId: '12', spanId: '34', name: 'bad', startTimeUnixNano: '1', endTimeUnixNano: '2' });
    const res = await call(server.url, 'POST', '/v1/traces', { key, raw: JSON.stringify(body), contentType: 'application/json' });
    assert.equal(res.status, 200);
    assert.equal(res.body.partialSuccess.rejectedSpans, '1');
    assert.match(res.body.partialSuccess.errorMessage, /rejected/);
    assert.equal((await storedTrace(traceIdOf(spans))).body.span_count, 2);
  });

  it('a re-sent batch (an exporter retry after a lost response) is stored once', async () => {
    const spans = sampleTrace(5);
    const body = serialize.protobuf(spans);
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${server.url}/v1/traces`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-protobuf' }, body });
      assert.equal(res.status, 200);
    }
    assert.equal((await exportSpans(protoExporter(server, key, true), spans)).code, ExportResultCode.SUCCESS);
    const both = await Promise.all([0, 1].map(() => call(server.url, 'POST', '/v1/traces', { key, raw: serialize.json(spans), contentType: 'application/json' })));
    assert.deepEqual(both.map((r) => r.status), [200, 200]);
    assert.equal((await storedTrace(traceIdOf(spans))).body.span_count, 5);
  });

  it('an empty export is accepted', async () => {
    const res = await call(server.url, 'POST', '/v1/traces', { key, raw: Buffer.alloc(0), contentType: 'application/x-protobuf' });
    assert.equal(res.status, 200);
    assert.equal(decodeExportResponse(Buffer.from(res.text, 'binary')), null);
  });

  it('GET /api/traces/:traceId: 404 for unknown, malformed or other-project traces; an org-wide key sees its organization', async () => {
    const spans = sampleTrace(2);
    await exportSpans(protoExporter(server, key), spans);
    assertError(await client(server.url, key).get(`/api/traces/${'1'.repeat(32)}`), 404, 'not_found');
    assertError(await client(server.url, key).get('/api/traces/not-hex'), 404, 'not_found');
    const other = await client(server.url, admin.api_key).post('/v1/projects', { name: 'elsewhere' });
    const otherKey = await client(server.url, admin.api_key).post('/api/keys', { name: 'other', project_id: other.body.project.id });
    assertError(await client(server.url, otherKey.body.secret).get(`/api/traces/${traceIdOf(spans)}`), 404, 'not_found');
    const viaOrg = await client(server.url, admin.api_key).get(`/api/traces/${traceIdOf(spans).toUpperCase()}`);
    assert.equal(viaOrg.status, 200);
    assert.equal(viaOrg.body.span_count, 2);
  });
});

