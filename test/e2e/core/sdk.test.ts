import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  AuthenticationError,
  ConnectionError,
  ConflictError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ServiceUnavailableError,
  Svc,
  ValidationError,
} from '@svc/sdk';
import { type Bootstrap, type TestServer, hostCommand, startBootstrappedServer } from '../../helpers/server.js';

describe('SDK against the real server', () => {
  let server: TestServer;
  let admin: Bootstrap;
  let cleanup: () => Promise<void>;
  let svc: Svc;

  before(async () => {
    ({ server, admin, cleanup } = await startBootstrappedServer());
    svc = new Svc({ apiKey: admin.api_key, baseUrl: server.url });
  });
  after(() => cleanup());

  it('creates, lists and revokes keys with parsed, typed results', async () => {
    const key = await svc.keys.create({ name: 'sdk' });
    assert.match(key.secret, /^svc_sk_/);
    assert.ok((await svc.keys.list()).some((k) => k.id === key.id));
    const revoked = await svc.keys.revoke(key.id);
    assert.ok(revoked.revoked_at);
    await assert.rejects(new Svc({ apiKey: key.secret, baseUrl: server.url, maxRetries: 0 }).keys.list(), (e: unknown) => {
      assert.ok(e instanceof AuthenticationError);
      assert.equal(e.status, 401);
      assert.equal(e.code, 'not_authenticated');
      assert.ok(e.requestId, 'the request id travels with the error');
      return true;
    });
  });

  it('reads SVC_URL and SVC_API_KEY from the environment by default', async () => {
    const saved = { url: process.env.SVC_URL, key: process.env.SVC_API_KEY };
    process.env.SVC_URL = server.url;
    process.env.SVC_API_KEY = admin.api_key;
    try {
      assert.ok((await new Svc().keys.list()).length >= 1);
    } finally {
      process.env.SVC_URL = saved.url;
      process.env.SVC_API_KEY = saved.key;
    }
  });

  it('walks every page of a /v1 list with an async iterator', async () => {
    const names = ['it-a', 'it-b', 'it-c', 'it-d', 'it-e'];
    for (const name of names) await svc.projects.create(name);
    const seen: string[] = [];
    for await (const project of svc.projects.list({ pageSize: 2 })) seen.push(project.name);
    assert.deepEqual(seen, [...names].reverse().concat('default'));
    let pages = 0;
    for await (const page of svc.projects.list({ pageSize: 2 }).iterPages()) {
      assert.ok(page.items.length <= 2);
      pages++;
    }
    assert.equal(pages, 3);
  });

  it('maps refusals to typed errors carrying code and details', async () => {
    await assert.rejects(svc.keys.revoke('key_nope'), NotFoundError);
    await assert.rejects(svc.projects.create('it-a'), (e: unknown) => e instanceof ConflictError && e.code === 'name_taken');
    await assert.rejects(svc.members.add('not-an-email', 'member'), (e: unknown) => {
      assert.ok(e instanceof ValidationError);
      assert.equal(e.code, 'validation_failed');
      assert.ok(Array.isArray((e.details as { issues: unknown[] }).issues));
      return true;
    });
    const projectKey = await svc.keys.create({ name: 'scoped', project_id: admin.project_id });
    const scoped = new Svc({ apiKey: projectKey.secret, baseUrl: server.url });
    await assert.rejects(scoped.projects.list().toArray(), PermissionError);
  });

  it('surfaces the health of both stores', async () => {
    const health = await svc.health.check();
    assert.equal(health.status, 'ok');
    assert.equal(health.httpStatus, 200);
  });

  it('raises ConnectionError when nothing listens', async () => {
    const dead = new Svc({ apiKey: admin.api_key, baseUrl: 'http://127.0.0.1:1', maxRetries: 0 });
    await assert.rejects(dead.keys.list(), ConnectionError);
    await assert.rejects(dead.health.check(), ConnectionError);
  });
});

describe('SDK rate limiting against the real server', () => {
  let server: TestServer;
  let cleanup: () => Promise<void>;
  let admin: Bootstrap;

  before(async () => {
    ({ server, admin, cleanup } = await startBootstrappedServer({ env: { SVC_RATE_LIMIT_PER_MINUTE: '3' } }));
  });
  after(() => cleanup());

  it('raises RateLimitError with retryAfter from the server', async () => {
    const svc = new Svc({ apiKey: admin.api_key, baseUrl: server.url, maxRetries: 0 });
    for (let i = 0; i < 3; i++) await svc.keys.list();
    await assert.rejects(svc.keys.list(), (e: unknown) => {
      assert.ok(e instanceof RateLimitError);
      assert.equal(e.code, 'too_many_requests');
      assert.ok(e.retryAfter !== undefined && e.retryAfter >= 1 && e.retryAfter <= 60);
      return true;
    });
    const other = await hostCommand<{ secret: string }>(server.dataDir, ['keys', 'create', '--email', 'admin@localhost']);
    await assert.rejects(new Svc({ apiKey: other.secret, baseUrl: server.url, maxRetries: 0 }).keys.list(), RateLimitError);
  });
});

describe('SDK retries', () => {
  // A scripted peer that answers each request with the next status in `script`;
  // it exercises the client's retry policy, which the real server cannot be made to trigger on demand.
  function scriptedPeer(script: Array<{ status: number; retryAfter?: string; body?: unknown }>) {
    const seen: string[] = [];
    const peer = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      const step = script.shift() ?? { status: 200, body: { keys: [] } };
      res.writeHead(step.status, { 'content-type': 'application/json', ...(step.retryAfter ? { 'retry-after': step.retryAfter } : {}) });
      res.end(JSON.stringify(step.body ?? { error: step.status === 429 ? 'too_many_requests' : 'unavailable', message: 'scripted' }));
    });
    return new Promise<{ url: string; seen: string[]; close: () => void }>((resolve) =>
      peer.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(peer.address() as AddressInfo).port}`, seen, close: () => peer.close() })),
    );
  }

  it('retries idempotent calls on 503 and 429, honouring Retry-After, up to the limit', async () => {
    const peer = await scriptedPeer([{ status: 503, retryAfter: '0' }, { status: 429, retryAfter: '0' }, { status: 200, body: { keys: [] } }]);
    try {
      const svc = new Svc({ apiKey: `svc_sk_${'a'.repeat(43)}`, baseUrl: peer.url, maxRetries: 2 });
      assert.deepEqual(await svc.keys.list(), []);
      assert.equal(peer.seen.length, 3);
    } finally {
      peer.close();
    }
  });

  it('gives up after maxRetries and throws the last error', async () => {
    const peer = await scriptedPeer([{ status: 503, retryAfter: '0' }, { status: 503, retryAfter: '0' }, { status: 503, retryAfter: '0' }]);
    try {
      const svc = new Svc({ apiKey: `svc_sk_${'a'.repeat(43)}`, baseUrl: peer.url, maxRetries: 1 });
      await assert.rejects(svc.keys.list(), ServiceUnavailableError);
      assert.equal(peer.seen.length, 2);
    } finally {
      peer.close();
    }
  });

  it('never repeats a non-idempotent POST on 503, but does on 429 (refused before any work)', async () => {
    const peer = await scriptedPeer([{ status: 503, retryAfter: '0' }]);
    try {
      const svc = new Svc({ apiKey: `svc_sk_${'a'.repeat(43)}`, baseUrl: peer.url, maxRetries: 3 });
      await assert.rejects(svc.keys.create({ name: 'once' }), ServiceUnavailableError);
      assert.equal(peer.seen.length, 1);
    } finally {
      peer.close();
    }
    const limited = await scriptedPeer([{ status: 429, retryAfter: '0' }, { status: 500 }]);
    try {
      const svc = new Svc({ apiKey: `svc_sk_${'a'.repeat(43)}`, baseUrl: limited.url, maxRetries: 3 });
      await assert.rejects(svc.keys.create({ name: 'twice' }));
      assert.equal(limited.seen.length, 2, '429 retried once, then the 500 ends it');
    } finally {
      limited.close();
    }
  });
});
