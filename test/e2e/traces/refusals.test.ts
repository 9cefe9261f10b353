import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { assertError, call, client } from '../../helpers/http.js';
import { ExportResultCode, decodeStatus, deepJson, deepProtobuf, exportSpans, jsonExporter, projectKey, protoExporter, sampleTrace, serialize } from '../../helpers/otlp.js';
import { type Bootstrap, type TestServer, hostCommand, startBootstrappedServer } from '../../helpers/server.js';

const LIMIT = 20 * 1024 * 1024;
const PROTOBUF = 'application/x-protobuf';

/** A raw request to /v1/traces; returns status, headers and the body bytes. */
async function post(server: TestServer, key: string | undefined, body: Buffer | Uint8Array, headers: Record<string, string>, method = 'POST') {
  const res = await fetch(`${server.url}/v1/traces`, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
    body: method === 'GET' ? undefined : body,
  });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** Asserts a protobuf refusal: the status, a google.rpc.Status body, and the message `<code>: <text>`. */
function assertStatus(res: { status: number; headers: Headers; bytes: Buffer }, status: number, code: string, grpcCode: number): void {
  assert.equal(res.status, status, res.bytes.toString());
  assert.equal(res.headers.get('content-type'), PROTOBUF);
  const decoded = decodeStatus(res.bytes);
  assert.equal(decoded.code, grpcCode);
  assert.match(decoded.message, new RegExp(`^${code}: .+`));
}

function asJson(res: { status: number; headers: Headers; bytes: Buffer }) {
  return { status: res.status, headers: res.headers, body: JSON.parse(res.bytes.toString()), text: res.bytes.toString() };
}

describe('POST /v1/traces refusals (error body for JSON, google.rpc.Status for protobuf)', () => {
  let server: TestServer;
  let admin: Bootstrap;
  let cleanup: () => Promise<void>;
  let key: string;

  before(async () => {
    ({ server, admin, cleanup } = await startBootstrappedServer());
    key = await projectKey(server, admin);
  });
  after(() => cleanup());

  it('401 without a key, 403 for an org-wide key — in the request\'s format, and nothing is stored', async () => {
    const spans = sampleTrace(2);
    assertStatus(await post(server, undefined, serialize.protobuf(spans), { 'content-type': PROTOBUF }), 401, 'not_authenticated', 16);
    assertStatus(await post(server, admin.api_key, serialize.protobuf(spans), { 'content-type': PROTOBUF }), 403, 'not_permitted', 7);
    assertError(asJson(await post(server, admin.api_key, serialize.json(spans), { 'content-type': 'application/json' })), 403, 'not_permitted');
    const viaExporter = await exportSpans(protoExporter(server, admin.api_key), spans);
    assert.equal(viaExporter.code, ExportResultCode.FAILED, 'the official exporter sees the refusal');
    const viaJson = await exportSpans(jsonExporter(server, admin.api_key), spans);
    assert.equal(viaJson.code, ExportResultCode.FAILED);
    assertError(await client(server.url, admin.api_key).get(`/api/traces/${spans[0]!.spanContext().traceId}`), 404, 'not_found');
  });

  it('403 for a viewer\'s project key: spans are writes, and viewers only read', async () => {
    const api = client(server.url, admin.api_key);
    assert.equal((await api.post('/v1/members', { email: 'trace-viewer@example.com', role: 'viewer' })).status, 201);
    const viewer = await hostCommand<{ secret: string }>(server.dataDir, ['keys', 'create', '--email', 'trace-viewer@example.com', '--project', 'default']);
    const spans = sampleTrace(2);
    assertStatus(await post(server, viewer.secret, serialize.protobuf(spans), { 'content-type': PROTOBUF }), 403, 'not_permitted', 7);
    assertError(asJson(await post(server, viewer.secret, serialize.json(spans), { 'content-type': 'application/json' })), 403, 'not_permitted');
    assertError(await api.get(`/api/traces/${spans[0]!.spanContext().traceId}`), 404, 'not_found');
  });

  it('415 for other media types and unknown encodings', async () => {
    const body = serialize.protobuf(sampleTrace(1));
    assertError(asJson(await post(server, key, body, { 'content-type': 'text/plain' })), 415, 'unsupported_media_type');
    assertError(asJson(await post(server, key, body, { 'content-type': 'application/x-www-form-urlencoded' })), 415, 'unsupported_media_type');
    assertStatus(await post(server, key, body, { 'content-type': PROTOBUF, 'content-encoding': 'br' }), 415, 'unsupported_media_type', 3);
    assertError(asJson(await post(server, key, serialize.json(sampleTrace(1)), { 'content-type': 'application/json', 'content-encoding': 'deflate' })), 415, 'unsupported_media_type');
  });

  it('405 for other methods, with Allow', async () => {
    const get = await call(server.url, 'GET', '/v1/traces', { key });
    assertError(get, 405, 'method_not_allowed');
    assert.match(get.headers.get('allow') ?? '', /POST/);
    assertStatus(await post(server, key, serialize.protobuf(sampleTrace(1)), { 'content-type': PROTOBUF }, 'PUT'), 405, 'method_not_allowed', 12);
  });

  it('413 for a wire body over 20 MiB, declared or streamed', async () => {
    const big = Buffer.alloc(LIMIT + 1, 1);
    assertStatus(await post(server, key, big, { 'content-type': PROTOBUF }), 413, 'payload_too_large', 8);
    const streamed = await fetch(`${server.url}/v1/traces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < 21; i++) controller.enqueue(new Uint8Array(1024 * 1024));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    assert.equal(streamed.status, 413);
    assert.equal(((await streamed.json()) as { error: string }).error, 'payload_too_large');
  });

  it('413 for a small gzip bomb: inflation stops at 20 MiB', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    assert.ok(bomb.length < 200 * 1024, 'the bomb itself is small');
    assertStatus(await post(server, key, bomb, { 'content-type': PROTOBUF, 'content-encoding': 'gzip' }), 413, 'payload_too_large', 8);
    const res = asJson(await post(server, key, bomb, { 'content-type': 'application/json', 'content-encoding': 'gzip' }));
    assertError(res, 413, 'payload_too_large');
    assert.match(res.body.message, /decompressed/);
    assert.equal((await client(server.url).get('/health')).status, 200, 'the server keeps serving');
  });

  it('400 invalid_otlp for corrupt gzip, undecodable protobuf and malformed JSON', async () => {
    const gz = gzipSync(serialize.protobuf(sampleTrace(2)));
    assertStatus(await post(server, key, gz.subarray(0, gz.length - 12), { 'content-type': PROTOBUF, 'content-encoding': 'gzip' }), 400, 'invalid_otlp', 3);
    assertStatus(await post(server, key, Buffer.from('not gzip at all'), { 'content-type': PROTOBUF, 'content-encoding': 'gzip' }), 400, 'invalid_otlp', 3);
    assertStatus(await post(server, key, Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x0f, 0x01]), { 'content-type': PROTOBUF }), 400, 'invalid_otlp', 3);
    assertError(asJson(await post(server, key, Buffer.from('{"resourceSpans": ['), { 'content-type': 'application/json' })), 400, 'invalid_otlp');
    assertError(asJson(await post(server, key, Buffer.from('{"resourceSpans": {"a": 1}}'), { 'content-type': 'application/json' })), 400, 'invalid_otlp');
    assertError(asJson(await post(server, key, Buffer.from('[1, 2]'), { 'content-type': 'application/json' })), 400, 'invalid_otlp');
  });

  it('400 invalid_otlp for attribute values nested past 64 levels, however deep (never a stack overflow)', async () => {
    for (const depth of [65, 2_000, 50_000]) {
      assertError(asJson(await post(server, key, deepJson(depth), { 'content-type': 'application/json' })), 400, 'invalid_otlp');
      assertStatus(await post(server, key, deepProtobuf(depth), { 'content-type': PROTOBUF }), 400, 'invalid_otlp', 3);
    }
    const ok = await post(server, key, deepJson(63), { 'content-type': 'application/json' });
    assert.equal(ok.status, 200, ok.bytes.toString());
  });

  it('400 invalid_otlp for unparseable JSON without quoting the body, which may carry a secret', async () => {
    // V8's parse error quotes the text around the error; span attributes can hold anything a worker saw.
    const secret = 'sk9d2e71c0a4f3b8';
    const res = asJson(await post(server, key, Buffer.from(`{"resourceSpans": [{"attributes": ${secret}}]}`), { 'content-type': 'application/json' }));
    assertError(res, 400, 'invalid_otlp');
    for (let i = 0; i + 6 <= secret.length; i++) assert.ok(!res.text.includes(secret.slice(i, i + 6)), `the refusal quotes the body: ${res.text}`);
  });

  it('documents both refusal formats in /openapi.json', async () => {
    const doc = (await client(server.url, admin.api_key).get('/openapi.json')).body;
    const op = doc.paths['/v1/traces'].post;
    assert.deepEqual(Object.keys(op.requestBody.content).sort(), ['application/json', 'application/x-protobuf']);
    assert.ok(op.responses['200'].content['application/x-protobuf']);
    assert.ok(op.responses['200'].content['application/json']);
    for (const status of ['400', '401', '403', '405', '413', '415', '429', '503']) {
      assert.ok(op.responses[status], `documents ${status}`);
      assert.ok(op.responses[status].content['application/x-protobuf'], `${status} documents the protobuf Status`);
      assert.ok(op.responses[status].content['application/json'], `${status} documents the error body`);
    }
    assert.ok(op.responses['415']['x-error-codes'].includes('unsupported_media_type'));
    assert.ok(doc.paths['/api/traces/{traceId}'].get);
  });
});

describe('POST /v1/traces when the write queue is full', () => {
  let server: TestServer;
  let admin: Bootstrap;
  let cleanup: () => Promise<void>;

  before(async () => {
    ({ server, admin, cleanup } = await startBootstrappedServer({ env: { SVC_TRACE_QUEUE_MAX_SPANS: '1' } }));
  });
  after(() => cleanup());

  it('answers 503 with Retry-After instead of queueing without bound; what it acknowledged is stored', async () => {
    const key = await projectKey(server, admin);
    const batches = Array.from({ length: 12 }, () => sampleTrace(50));
    const results = await Promise.all(batches.map((spans) => post(server, key, serialize.protobuf(spans), { 'content-type': PROTOBUF })));
    const refused = results.filter((r) => r.status === 503);
    assert.ok(refused.length > 0, `expected some 503s, got ${results.map((r) => r.status).join(',')}`);
    for (const r of refused) {
      assert.ok(Number(r.headers.get('retry-after')) >= 1);
      assertStatus(r, 503, 'unavailable', 14);
    }
    for (const [i, r] of results.entries()) {
      const stored = await client(server.url, key).get(`/api/traces/${batches[i]![0]!.spanContext().traceId}`);
      assert.equal(stored.status, r.status === 200 ? 200 : 404, 'acknowledged batches are stored, refused ones are not');
    }
  });
});

describe('POST /v1/traces over the rate limit', () => {
  let server: TestServer;
  let admin: Bootstrap;
  let cleanup: () => Promise<void>;

  before(async () => {
    ({ server, admin, cleanup } = await startBootstrappedServer({ env: { SVC_RATE_LIMIT_PER_MINUTE: '3' } }));
  });
  after(() => cleanup());

  it('429 with Retry-After as a google.rpc.Status for protobuf, the error body for JSON', async () => {
    const key = await projectKey(server, admin); // 1 request
    assert.equal((await post(server, key, serialize.protobuf(sampleTrace(1)), { 'content-type': PROTOBUF })).status, 200);
    assert.equal((await post(server, key, serialize.protobuf(sampleTrace(1)), { 'content-type': PROTOBUF })).status, 200);
    const limited = await post(server, key, serialize.protobuf(sampleTrace(1)), { 'content-type': PROTOBUF });
    assertStatus(limited, 429, 'too_many_requests', 8);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    assertError(asJson(await post(server, key, serialize.json(sampleTrace(1)), { 'content-type': 'application/json' })), 429, 'too_many_requests');
  });
});
