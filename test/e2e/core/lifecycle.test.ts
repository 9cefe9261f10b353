import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { client } from '../../helpers/http.js';
import { SERVER_BIN } from '../../helpers/paths.js';
import { type Bootstrap, type TestServer, bootstrappedDataDir, hostCommand, startServer } from '../../helpers/server.js';

const run = promisify(execFile);

describe('server lifecycle: bootstrap, lock, restart, health', () => {
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

  it('bootstrap printed the ids and an admin key, and refuses a second time', async () => {
    assert.match(admin.organization_id, /^org_/);
    assert.match(admin.project_id, /^prj_/);
    assert.match(admin.user_id, /^usr_/);
    assert.match(admin.api_key, /^svc_sk_[A-Za-z0-9_-]{43}$/);
    await assert.rejects(run(process.execPath, [SERVER_BIN, 'bootstrap', '--data-dir', dataDir, '--json']), (err: { code: number; stderr: string }) => {
      assert.equal(err.code, 1);
      assert.match(err.stderr, /already bootstrapped/);
      return true;
    });
    assert.ok(!server.output.join('\n').includes(admin.api_key), 'a bootstrapped instance prints no key on start');
  });

  it('refuses a second server on the same data directory at once, writing nothing', async () => {
    const before = (await client(server.url, admin.api_key).get('/api/keys')).body.keys.length;
    await assert.rejects(run(process.execPath, [SERVER_BIN, 'start', '--port', '0', '--data-dir', dataDir], { timeout: 15_000 }), (err: { code: number; stderr: string }) => {
      assert.equal(err.code, 1);
      assert.match(err.stderr, /already using the data directory/);
      return true;
    });
    assert.equal((await client(server.url, admin.api_key).get('/api/keys')).body.keys.length, before);
    assert.equal((await client(server.url).get('/health')).status, 200, 'the first server is unaffected');
  });

  it('reports 503 naming the relational store while it cannot take writes, and recovers', async () => {
    const health = await client(server.url).get('/health');
    assert.deepEqual(health.body, { status: 'ok', relational: 'reachable', analytics: 'reachable' });
    const holder = new Database(path.join(dataDir, 'svc.sqlite'));
    holder.exec('BEGIN IMMEDIATE');
    holder.prepare('INSERT INTO health_probe (id, checked_at) VALUES (2, ?)').run('held');
    try {
      const down = await client(server.url).get('/health');
      assert.equal(down.status, 503);
      assert.deepEqual(down.body, { status: 'unavailable', relational: 'unreachable', analytics: 'reachable' });
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    assert.equal((await client(server.url).get('/health')).status, 200);
  });

  it('keeps keys, users and projects across a restart, and shuts down cleanly on SIGTERM', async () => {
    const api = client(server.url, admin.api_key);
    const project = await api.post('/v1/projects', { name: 'survives' });
    const key = await api.post('/api/keys', { name: 'survivor', project_id: project.body.project.id });
    await hostCommand(dataDir, ['user', 'create', '--email', 'lee@example.com', '--role', 'viewer']);
    assert.equal(await server.stop(), 0, 'SIGTERM exits 0');
    assert.ok(server.output.some((l) => l.includes('"msg":"stopped"')));

    server = await startServer({ dataDir });
    const again = client(server.url, admin.api_key);
    const projects = await again.get('/v1/projects');
    assert.ok(projects.body.projects.some((p: { name: string }) => p.name === 'survives'));
    const keys = await again.get('/api/keys');
    const kept = keys.body.keys.find((k: { id: string }) => k.id === key.body.id);
    assert.ok(kept, 'the key is still there');
    assert.ok(kept.last_used_at === null);
    assert.equal((await client(server.url, key.body.secret).get('/api/conversations')).status, 200, 'and still works');
    const members = await again.get('/v1/members');
    assert.ok(members.body.members.some((m: { email: string }) => m.email === 'lee@example.com'));
    const used = (await again.get('/api/keys')).body.keys.find((k: { id: string }) => k.id === key.body.id);
    assert.ok(used.last_used_at, 'last use recorded');
  });

  it('writes a key\'s last use to disk by shutdown', async () => {
    const api = client(server.url, admin.api_key);
    await api.get('/api/keys');
    await server.stop();
    const db = new Database(path.join(dataDir, 'svc.sqlite'), { readonly: true });
    const row = db.prepare("SELECT last_used_at FROM api_keys WHERE name = 'bootstrap admin'").get() as { last_used_at: string | null };
    db.close();
    assert.ok(row.last_used_at, 'flushed on shutdown');
    server = await startServer({ dataDir });
  });
});
