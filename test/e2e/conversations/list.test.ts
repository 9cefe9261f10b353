import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { assertError, call, client } from '../../helpers/http.js';
import { childOf, eventually, exportSpans, hr, projectKey, protoExporter, recordSpans } from '../../helpers/otlp.js';
import { type Bootstrap, type TestServer, startBootstrappedServer } from '../../helpers/server.js';

const BASE = Date.parse('2026-11-01T10:00:00.000Z');

/** A short session of agent `agent`, starting `minutes` after BASE. */
function session(id: string, agent: string, minutes: number): ReadableSpan[] {
  return recordSpans((tracer) => {
    const t0 = BASE + minutes * 60_000;
    const root = tracer.startSpan('agent_session', { startTime: hr(t0), attributes: { 'svc.session.id': id, 'lk.agent_name': agent } });
    childOf(tracer, root, 'user_turn', t0 + 100, t0 + 900, { 'lk.user_transcript': `hello from ${id}` });
    root.end(hr(t0 + 2000));
  });
}

describe('GET /api/conversations: filters and pages', () => {
  let server: TestServer;
  let admin: Bootstrap;
  let cleanup: () => Promise<void>;
  let key: string;
  const sessions = [
    { id: 'c-1', agent: 'desk', minutes: 0 },
    { id: 'c-2', agent: 'desk', minutes: 10 },
    { id: 'c-3', agent: 'billing', minutes: 20 },
    { id: 'c-4', agent: 'desk', minutes: 30 },
    { id: 'c-5', agent: 'billing', minutes: 40 },
  ];

  before(async () => {
    ({ server, admin, cleanup } = await startBootstrappedServer());
    key = await projectKey(server, admin);
    const spans = sessions.flatMap((s) => session(s.id, s.agent, s.minutes));
    const result = await exportSpans(protoExporter(server, key), spans);
    assert.equal(result.code, 0);
    await eventually('five conversations', async () => {
      const res = await client(server.url, key).get('/api/conversations?limit=100');
      return res.body.items?.length === sessions.length;
    });
  });
  after(() => cleanup());

  it('filters by agent (platform agent id), source and start time', async () => {
    const api = client(server.url, key);
    const desk = await api.get('/api/conversations?agent_id=desk');
    assert.equal(desk.status, 200, desk.text);
    assert.deepEqual(desk.body.items.map((c: { external_id: string }) => c.external_id), ['c-4', 'c-2', 'c-1'], 'newest first, only desk');
    assert.deepEqual((await api.get('/api/conversations?agent_id=nobody')).body.items, []);
    assert.equal((await api.get('/api/conversations?source=platform_b')).body.items.length, 5);
    assert.deepEqual((await api.get('/api/conversations?source=platform_a')).body.items, []);
    const window = await api.get(`/api/conversations?started_after=${new Date(BASE + 10 * 60_000).toISOString()}&started_before=${new Date(BASE + 40 * 60_000).toISOString()}`);
    assert.deepEqual(window.body.items.map((c: { external_id: string }) => c.external_id), ['c-4', 'c-3', 'c-2'], 'after is inclusive, before exclusive');
    const combined = await api.get(`/api/conversations?agent_id=billing&started_after=${new Date(BASE + 30 * 60_000).toISOString()}`);
    assert.deepEqual(combined.body.items.map((c: { external_id: string }) => c.external_id), ['c-5']);
  });

  it('pages with limit and next_cursor without repeats or gaps', async () => {
    const api = client(server.url, key);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await api.get(`/api/conversations?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(page.status, 200);
      assert.ok(page.body.items.length <= 2);
      seen.push(...page.body.items.map((c: { external_id: string }) => c.external_id));
      cursor = page.body.next_cursor;
    } while (cursor);
    assert.deepEqual(seen, ['c-5', 'c-4', 'c-3', 'c-2', 'c-1']);
  });

  it('refuses bad filters and unknown cursors with 400', async () => {
    const api = client(server.url, key);
    assertError(await api.get('/api/conversations?source=platform_z'), 400, 'invalid_request');
    assertError(await api.get('/api/conversations?started_after=yesterday'), 400, 'invalid_request');
    assertError(await api.get('/api/conversations?limit=0'), 400, 'invalid_request');
    assertError(await api.get('/api/conversations?cursor=cnv_unknown'), 400, 'invalid_request');
  });

  it('shows one conversation by id in its project, and 404 elsewhere', async () => {
    const first = (await client(server.url, key).get('/api/conversations?limit=1')).body.items[0];
    const detail = await client(server.url, key).get(`/api/conversations/${first.id}`);
    assert.equal(detail.status, 200);
    assert.equal(detail.body.external_id, first.external_id);
    assert.ok(Array.isArray(detail.body.turns));
    assert.equal((await client(server.url, admin.api_key).get(`/api/conversations/${first.id}`)).status, 200, 'org-wide keys find it');
    const other = (await client(server.url, admin.api_key).post('/v1/projects', { name: 'elsewhere' })).body.project;
    const otherKey = (await client(server.url, admin.api_key).post('/api/keys', { name: 'elsewhere', project_id: other.id })).body.secret;
    assertError(await call(server.url, 'GET', `/api/conversations/${first.id}`, { key: otherKey }), 404, 'not_found');
  });
});
