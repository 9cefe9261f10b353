import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { assertError, client } from '../../helpers/http.js';
import { type Bootstrap, type TestServer, hostCommand, startBootstrappedServer } from '../../helpers/server.js';

describe('API keys', () => {
  let server: TestServer;
  let admin: Bootstrap;
  let cleanup: () => Promise<void>;
  let api: ReturnType<typeof client>;

  before(async () => {
    ({ server, admin, cleanup } = await startBootstrappedServer());
    api = client(server.url, admin.api_key);
  });
  after(() => cleanup());

  it('creates a key whose secret is shown once and stored only as a SHA-256 hash', async () => {
    const created = await api.post('/api/keys', { name: 'ci' });
    assert.equal(created.status, 201);
    const key = created.body;
    assert.match(key.secret, /^svc_sk_[A-Za-z0-9_-]{43}$/);
    assert.match(key.id, /^key_/);
    assert.equal(key.name, 'ci');
    assert.equal(key.scope, 'organization');
    assert.equal(key.project_id, null);
    assert.equal(key.organization_id, admin.organization_id);
    assert.equal(key.created_by_user_id, admin.user_id);
    assert.equal(key.looks_like, `svc_sk_...${key.secret.slice(-4)}`);
    assert.equal(key.last_used_at, null);
    assert.equal(key.revoked_at, null);

    const listed = await api.get('/api/keys');
    assert.equal(listed.status, 200);
    const entry = listed.body.keys.find((k: { id: string }) => k.id === key.id);
    assert.ok(entry, 'the new key is listed');
    assert.equal(entry.secret, undefined, 'the list never carries a secret');
    assert.ok(!listed.text.includes(key.secret));

    const db = new Database(path.join(server.dataDir, 'svc.sqlite'), { readonly: true });
    const row = db.prepare('SELECT * FROM api_keys WHERE id = ?').get(key.id) as Record<string, unknown>;
    db.close();
    assert.deepEqual(row.secret_hash, createHash('sha256').update(key.secret).digest());
    assert.ok(!JSON.stringify(row).includes(key.secret.slice(7)), 'no column holds the plaintext secret');
  });

  it('refuses unknown fields and a name of the wrong type with 422', async () => {
    assertError(await api.post('/api/keys', { name: 'x', scope: 'organization' }), 422, 'validation_failed');
    const wrongType = await api.post('/api/keys', { name: 42 });
    assertError(wrongType, 422, 'validation_failed');
    assert.equal(wrongType.body.details.issues[0].path, 'name');
  });

  it('records last_used_at on successful use', async () => {
    const { body: key } = await api.post('/api/keys', { name: 'usage' });
    assert.equal((await client(server.url, key.secret).get('/api/keys')).status, 200);
    const listed = await api.get('/api/keys');
    const entry = listed.body.keys.find((k: { id: string }) => k.id === key.id);
    assert.ok(entry.last_used_at, 'last_used_at is set after a use');
    assert.ok(Date.parse(entry.last_used_at) >= Date.parse(key.created_at));
  });

  it('stops a revoked key on the very next request and returns the final record', async () => {
    const { body: key } = await api.post('/api/keys', { name: 'to revoke' });
    const victim = client(server.url, key.secret);
    assert.equal((await victim.get('/api/keys')).status, 200);
    const revoked = await api.post(`/api/keys/${key.id}/revoke`);
    assert.equal(revoked.status, 200);
    assert.equal(revoked.body.id, key.id);
    assert.ok(revoked.body.revoked_at);
    assert.equal(revoked.body.secret, undefined);
    assertError(await victim.get('/api/keys'), 401, 'not_authenticated');
    const again = await api.post(`/api/keys/${key.id}/revoke`);
    assert.equal(again.status, 200, 'revoking twice returns the same final record');
    assert.equal(again.body.revoked_at, revoked.body.revoked_at);
  });

  it('answers 404 for revoking an unknown key', async () => {
    assertError(await api.post('/api/keys/key_doesnotexist/revoke'), 404, 'not_found');
  });

  it('shows admins every key and members only their own, and hides others from revoke', async () => {
    await hostCommand(server.dataDir, ['user', 'create', '--email', 'mia@example.com', '--role', 'member']);
    const mia = await hostCommand<{ secret: string; id: string }>(server.dataDir, ['keys', 'create', '--email', 'mia@example.com', '--name', 'mia']);
    const asMia = client(server.url, mia.secret);
    const miaOwn = await asMia.post('/api/keys', { name: 'mia second' });
    assert.equal(miaOwn.status, 201);

    const miaList = await asMia.get('/api/keys');
    assert.deepEqual(new Set(miaList.body.keys.map((k: { id: string }) => k.id)), new Set([mia.id, miaOwn.body.id]));

    const adminList = await api.get('/api/keys');
    const adminIds = adminList.body.keys.map((k: { id: string }) => k.id);
    assert.ok(adminIds.includes(mia.id) && adminIds.includes(miaOwn.body.id), 'admins see every key of the organization');
    assert.ok(adminList.body.keys.length > miaList.body.keys.length);

    const adminKeyId = adminList.body.keys.find((k: { created_by_user_id: string }) => k.created_by_user_id === admin.user_id).id;
    assertError(await asMia.post(`/api/keys/${adminKeyId}/revoke`), 404, 'not_found');
    assert.equal((await api.get('/api/keys')).status, 200, "the admin's key still works");
  });

  it('lets a demoted member read but not write with the same key', async () => {
    const member = await api.post('/v1/members', { email: 'dan@example.com', role: 'member' });
    assert.equal(member.status, 201);
    const dan = await hostCommand<{ secret: string }>(server.dataDir, ['keys', 'create', '--email', 'dan@example.com']);
    const asDan = client(server.url, dan.secret);
    assert.equal((await asDan.post('/api/keys', { name: 'while member' })).status, 201);

    const demoted = await api.patch(`/v1/members/${member.body.member.userId}`, { role: 'viewer' });
    assert.equal(demoted.status, 200);
    assert.equal(demoted.body.member.role, 'viewer');

    assertError(await asDan.post('/api/keys', { name: 'as viewer' }), 403, 'not_permitted');
    assert.equal((await asDan.get('/api/keys')).status, 200, 'a viewer still reads');
    const ownKey = (await asDan.get('/api/keys')).body.keys[0];
    assertError(await asDan.post(`/api/keys/${ownKey.id}/revoke`), 403, 'not_permitted');
  });

  it('refuses a missing, malformed or unknown bearer key with 401 and the error shape', async () => {
    assertError(await client(server.url).get('/api/keys'), 401, 'not_authenticated');
    assertError(await client(server.url, 'svc_sk_short').get('/api/keys'), 401, 'not_authenticated');
    assertError(await client(server.url, `svc_sk_${'A'.repeat(43)}`).get('/api/keys'), 401, 'not_authenticated');
    const basic = await client(server.url).get('/api/keys', { headers: { authorization: 'Basic YWRtaW46YWRtaW4=' } });
    assertError(basic, 401, 'not_authenticated');
  });
});
