import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { validate, compileErrors } from '@readme/openapi-parser';
import { operations } from '@svc/contract';
import { client } from '../../helpers/http.js';
import { type TestServer, startBootstrappedServer } from '../../helpers/server.js';

describe('GET /openapi.json', () => {
  let server: TestServer;
  let cleanup: () => Promise<void>;
  let doc: any;

  before(async () => {
    let admin;
    ({ server, admin, cleanup } = await startBootstrappedServer());
    assert.equal((await client(server.url).get('/openapi.json')).status, 401, 'every path but /health needs a key');
    const res = await client(server.url, admin.api_key).get('/openapi.json');
    assert.equal(res.status, 200);
    doc = res.body;
  });
  after(() => cleanup());

  it('is a valid OpenAPI 3.1.0 document, version 1.0.0, relative server', async () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.version, '1.0.0');
    assert.deepEqual(doc.servers, [{ url: '/' }]);
    const result = await validate(structuredClone(doc));
    assert.ok(result.valid, result.valid ? '' : compileErrors(result));
  });

  it('has every operation of the route table with its error responses', () => {
    for (const op of operations) {
      const entry = doc.paths[op.path]?.[op.method];
      assert.ok(entry, `${op.method.toUpperCase()} ${op.path} is documented`);
      assert.equal(entry.operationId, op.operationId);
      assert.ok(entry.responses[String(op.status)], `${op.operationId} documents its success`);
      assert.ok(entry.responses['500'], `${op.operationId} documents 500`);
      if (op.auth !== 'none') {
        for (const status of ['401', '403', '429']) assert.ok(entry.responses[status], `${op.operationId} documents ${status}`);
        assert.ok(entry.responses['429'].headers['Retry-After']);
      }
      for (const [status, codes] of Object.entries(op.errors ?? {})) {
        assert.ok(entry.responses[status], `${op.operationId} documents ${status}`);
        for (const code of codes ?? []) assert.ok(entry.responses[status]['x-error-codes'].includes(code), `${op.operationId} ${status} lists ${code}`);
      }
    }
  });

  it('documents the strict shapes: error body and key record admit no extra members', () => {
    assert.equal(doc.components.schemas.ErrorBody.additionalProperties, false);
    assert.deepEqual(doc.components.schemas.ErrorBody.required, ['error', 'message']);
    assert.equal(doc.components.schemas.ApiKey.additionalProperties, false);
    const body = doc.paths['/api/keys'].post.requestBody.content['application/json'].schema;
    assert.equal(body.additionalProperties, false, 'request bodies are strict');
    assert.deepEqual(doc.paths['/v1/projects'].get.security, [{ bearerAuth: [] }, { sessionCookie: [] }]);
    assert.deepEqual(doc.paths['/api/keys'].get.security, [{ bearerAuth: [] }]);
    assert.deepEqual(doc.paths['/health'].get.security, []);
    assert.deepEqual(doc.paths['/openapi.json'].get.security, [{ bearerAuth: [] }]);
  });
});
