import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { assertError, call, client } from '../../helpers/http.js';
import { type Bootstrap, type TestServer, startBootstrappedServer } from '../../helpers/server.js';

/**
 * Streams a body of `chunks` × `chunkSize` bytes without a Content-Length and
 * resolves with the response as soon as it arrives: the server answers before
 * the body ends, and may close the socket while we are still writing.
 */
function streamUntilAnswered(url: string, key: string, chunkSize: number, chunks: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('error', () => undefined); // EPIPE/ECONNRESET after the answer is expected
    let sent = 0;
    const pump = () => {
      while (sent < chunks) {
        sent++;
        if (!req.write('x'.repeat(chunkSize))) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

describe('HTTP refusals all carry the error body', () => {
  let server: TestServer;
  let admin: Bootstrap;
  let cleanup: () => Promise<void>;

  before(async () => {
    ({ server, admin, cleanup } = await startBootstrappedServer());
  });
  after(() => cleanup());

  it('404 for an unknown route, 405 with Allow for a wrong method', async () => {
    assertError(await call(server.url, 'GET', '/no/such/route'), 404, 'not_found');
    const wrong = await call(server.url, 'DELETE', '/api/keys', { key: admin.api_key });
    assertError(wrong, 405, 'method_not_allowed');
    assert.match(wrong.headers.get('allow') ?? '', /GET/);
    assert.match(wrong.headers.get('allow') ?? '', /POST/);
  });

  it('400 for malformed JSON and for a body that is not JSON', async () => {
    assertError(await call(server.url, 'POST', '/api/keys', { key: admin.api_key, raw: '{"name": ', contentType: 'application/json' }), 400, 'invalid_request');
    assertError(await call(server.url, 'POST', '/api/keys', { key: admin.api_key, raw: 'name=x', contentType: 'application/x-www-form-urlencoded' }), 400, 'invalid_request');
  });

  it('400 for unparseable JSON without echoing the body, which may carry a secret', async () => {
    // The JSON parser's own message quotes the text around the error: a credential sent unquoted would come back in the refusal.
    const secret = 'pa1f6c03e9b7d24a58';
    for (const raw of [`{"api_key": ${secret}}`, `{"api_key": "${secret}" "agents": []}`, `{"api_key": "${secret}`]) {
      const res = await call(server.url, 'PUT', '/api/monitoring/platform_a?project=default', { key: admin.api_key, raw, contentType: 'application/json' });
      assertError(res, 400, 'invalid_request');
      for (let i = 0; i + 6 <= secret.length; i++) assert.ok(!res.text.includes(secret.slice(i, i + 6)), `the refusal quotes the body: ${res.text}`);
    }
  });

  it('accepts a JSON media type with a charset parameter', async () => {
    const res = await call(server.url, 'POST', '/api/keys', { key: admin.api_key, raw: '{"name":"charset"}', contentType: 'application/json; charset=utf-8' });
    assert.equal(res.status, 201);
  });

  it('413 for a JSON body over 1 MiB, whether declared or not', async () => {
    const huge = JSON.stringify({ name: 'x'.repeat(1024 * 1024) });
    assertError(await call(server.url, 'POST', '/api/keys', { key: admin.api_key, raw: huge, contentType: 'application/json' }), 413, 'payload_too_large');
    const chunked = await streamUntilAnswered(`${server.url}/api/keys`, admin.api_key, 100_000, 20);
    assert.equal(chunked.status, 413);
    assert.equal(JSON.parse(chunked.body).error, 'payload_too_large');
    assert.equal((await client(server.url, admin.api_key).get('/api/keys')).status, 200, 'the server keeps serving');
  });

  it('400 for a JSON body nested deeper than 64 levels, also in free-form members (was a stack overflow and a 500)', async () => {
    const api = client(server.url, admin.api_key);
    const deepArray = (d: number) => '['.repeat(d) + '0' + ']'.repeat(d);
    const deepObject = (d: number) => '{"a":'.repeat(d) + '0' + '}'.repeat(d);
    const test = (answer: string, name: string) =>
      `{"name":"${name}","scenario":"s","expected_behaviors":["b"],"project":"default","mock_tools":[{"tool":"x","answer":${answer}}]}`;
    const agent = (await api.post('/v1/agents?projectId=default', { name: 'deep', agentPlatform: 'custom' })).body.agent;
    for (const depth of [5_000, 100_000]) {
      const refused = await call(server.url, 'POST', '/api/tests', { key: admin.api_key, raw: test(deepArray(depth), `deep ${depth}`), contentType: 'application/json' });
      assertError(refused, 400, 'invalid_request');
      assert.equal(refused.body.details.depth_limit, 64);
      const config = `{"name":"c","connectionType":"http_chat","config":{"url":"http://127.0.0.1:9/x","deep":${deepObject(depth)}}}`;
      assertError(await call(server.url, 'POST', `/v1/agents/${agent.id}/connections?projectId=default`, { key: admin.api_key, raw: config, contentType: 'application/json' }), 400, 'invalid_request');
    }
    // Brackets inside strings are text, and 64 levels (the mock tools list and its item are two) still pass.
    const ok = await call(server.url, 'POST', '/api/tests', { key: admin.api_key, raw: test(deepArray(61), '[[[[{{{{'.repeat(20)), contentType: 'application/json' });
    assert.equal(ok.status, 201, ok.text);
    assert.equal((await api.get('/api/keys')).status, 200, 'the server keeps serving');
  });

  it('400 for bad query parameters, including repeated ones', async () => {
    const api = client(server.url, admin.api_key);
    assertError(await api.get('/v1/projects?pageSize=abc'), 400, 'invalid_request');
    assertError(await api.get('/v1/projects?pageSize=1&pageSize=2'), 400, 'invalid_request');
    assertError(await api.get('/v1/projects?unknownFilter=1'), 400, 'invalid_request');
  });

  it('echoes a sane x-request-id and generates one otherwise', async () => {
    const echoed = await call(server.url, 'GET', '/health', { headers: { 'x-request-id': 'req-123.abc' } });
    assert.equal(echoed.headers.get('x-request-id'), 'req-123.abc');
    const replaced = await call(server.url, 'GET', '/health', { headers: { 'x-request-id': 'bad id with spaces' } });
    assert.match(replaced.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  });

  it('never writes a secret or a cookie value into the log', async () => {
    const api = client(server.url, admin.api_key);
    const created = await api.post('/api/keys', { name: 'log check' });
    await client(server.url).get('/v1/projects', { headers: { cookie: 'svc.session_token=cookie-value-xyz' } });
    await client(server.url, created.body.secret).get('/api/keys');
    const log = server.output.join('\n');
    assert.ok(log.includes('"msg":"request"'), 'requests are logged');
    for (const secret of [admin.api_key, created.body.secret, 'cookie-value-xyz']) assert.ok(!log.includes(secret), 'secret found in log');
    for (const line of server.output.filter((l) => l.startsWith('{'))) {
      const entry = JSON.parse(line) as Record<string, unknown>;
      assert.ok(entry.level && entry.time && entry.msg, 'structured lines');
    }
  });
});
