import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, client } from '../../helpers/http.js';
import { type Bootstrap, type TestServer, hostCommand, startBootstrappedServer } from '../../helpers/server.js';

describe('tenancy: project keys, organization management and sessions', () => {
  let server: TestServer;
  let admin: Bootstrap;
  let cleanup: () => Promise<void>;
  let api: ReturnType<typeof client>;
  let other: { id: string; name: string };
  let projectKey: { secret: string; id: string };

  before(async () => {
    ({ server, admin, cleanup } = await startBootstrappedServer());
    api = client(server.url, admin.api_key);
    const created = await api.post('/v1/projects', { name: 'other-project' });
    assert.equal(created.status, 201);
    other = created.body.project;
    const key = await api.post('/api/keys', { name: 'default only', project_id: admin.project_id });
    assert.equal(key.status, 201);
    assert.equal(key.body.scope, 'project');
    assert.equal(key.body.project_id, admin.project_id);
    projectKey = key.body;
  });
  after(() => cleanup());

  it('keeps project names unique in the organization', async () => {
    assertError(await api.post('/v1/projects', { name: 'other-project' }), 409, 'name_taken');
    const listed = await api.get('/v1/projects');
    assert.deepEqual(listed.body.projects.map((p: { name: string }) => p.name).sort(), ['default', 'other-project']);
    assert.equal(listed.body.nextPageToken, null);
  });

  it('pages projects with pageSize and nextPageToken', async () => {
    for (const n of [1, 2, 3]) assert.equal((await api.post('/v1/projects', { name: `paged-${n}` })).status, 201);
    const seen: string[] = [];
    let token: string | null = null;
    let pages = 0;
    do {
      const res = await api.get(`/v1/projects?pageSize=2${token ? `&pageToken=${token}` : ''}`);
      assert.equal(res.status, 200);
      assert.ok(res.body.projects.length <= 2);
      seen.push(...res.body.projects.map((p: { name: string }) => p.name));
      token = res.body.nextPageToken;
      pages++;
    } while (token);
    assert.equal(pages, 3);
    assert.equal(new Set(seen).size, seen.length, 'no project twice');
    assert.deepEqual(seen.slice(0, 3), ['paged-3', 'paged-2', 'paged-1'], 'newest first');
    assertError(await api.get('/v1/projects?pageSize=0'), 400, 'invalid_request');
    assertError(await api.get('/v1/projects?pageToken=prj_unknown'), 400, 'invalid_request');
  });

  it('confines a project key to its project whichever way another is named', async () => {
    const asProject = client(server.url, projectKey.secret);
    assert.equal((await asProject.get('/api/conversations')).status, 200, 'its own project by default');
    assert.equal((await asProject.get(`/api/conversations?project=${admin.project_id}`)).status, 200);
    assert.equal((await asProject.get('/api/conversations?project=default')).status, 200);
    for (const named of [other.id, other.name, 'no-such-project', 'prj_doesnotexist']) {
      const res = await asProject.get(`/api/conversations?project=${encodeURIComponent(named)}`);
      assertError(res, 403, 'not_permitted');
      assert.ok(!res.text.includes(other.id) || named === other.id, 'no data of the other project');
    }
  });

  it('lets a project key create keys only for its own project, named explicitly', async () => {
    const asProject = client(server.url, projectKey.secret);
    assertError(await asProject.post('/api/keys', { name: 'widen' }), 403, 'not_permitted');
    assertError(await asProject.post('/api/keys', { name: 'other', project_id: other.id }), 403, 'not_permitted');
    assertError(await asProject.post('/api/keys', { name: 'other', project_id: other.name }), 403, 'not_permitted');
    const own = await asProject.post('/api/keys', { name: 'rotated', project_id: admin.project_id });
    assert.equal(own.status, 201);
    assert.equal(own.body.project_id, admin.project_id);
    const listed = await asProject.get('/api/keys');
    assert.ok(listed.body.keys.every((k: { project_id: string }) => k.project_id === admin.project_id), 'a project key lists only its project\'s keys');
    assert.ok(listed.body.keys.some((k: { id: string }) => k.id === own.body.id));
  });

  it('refuses organization management to a project key even for an admin', async () => {
    const asProject = client(server.url, projectKey.secret);
    assertError(await asProject.get('/v1/projects'), 403, 'not_permitted');
    assertError(await asProject.post('/v1/projects', { name: 'sneaky' }), 403, 'not_permitted');
    assertError(await asProject.get('/v1/members'), 403, 'not_permitted');
    assertError(await asProject.post('/v1/members', { email: 'x@example.com', role: 'admin' }), 403, 'not_permitted');
    assertError(await asProject.patch(`/v1/members/${admin.user_id}`, { role: 'viewer' }), 403, 'not_permitted');
  });

  it('needs a project for project resources when the key is org-wide', async () => {
    assertError(await api.get('/api/conversations'), 400, 'project_required');
    assertError(await api.get('/api/conversations?project=missing'), 404, 'not_found');
    assert.equal((await api.get(`/api/conversations?project=${other.name}`)).status, 200);
  });

  it('manages members: add, duplicate email, role change and the last admin', async () => {
    const added = await api.post('/v1/members', { email: 'Vera@Example.com', role: 'viewer' });
    assert.equal(added.status, 201);
    assert.equal(added.body.member.email, 'vera@example.com');
    assertError(await api.post('/v1/members', { email: 'vera@example.com', role: 'member' }), 409, 'email_taken');
    assertError(await api.post('/v1/members', { email: 'not-an-email', role: 'member' }), 422, 'validation_failed');
    assertError(await api.post('/v1/members', { email: 'ok@example.com', role: 'owner' }), 422, 'validation_failed');
    assertError(await api.patch(`/v1/members/${admin.user_id}`, { role: 'member' }), 409, 'last_admin');
    assertError(await api.patch('/v1/members/usr_nobody', { role: 'member' }), 404, 'not_found');
    const members = await api.get('/v1/members');
    assert.ok(members.body.members.some((m: { email: string; role: string }) => m.email === 'vera@example.com' && m.role === 'viewer'));

    const vera = await hostCommand<{ secret: string }>(server.dataDir, ['keys', 'create', '--email', 'vera@example.com']);
    const asVera = client(server.url, vera.secret);
    assert.equal((await asVera.get('/v1/projects')).status, 200, 'viewers list projects');
    assertError(await asVera.get('/v1/members'), 403, 'not_permitted');
    assertError(await asVera.post('/v1/projects', { name: 'viewer-made' }), 403, 'not_permitted');
    assertError(await asVera.post('/api/keys', {}), 403, 'not_permitted');
  });

  it('accepts the session cookie on /v1 paths only', async () => {
    const session = await hostCommand<{ token: string; user_id: string; expires_at: string }>(server.dataDir, ['session', 'create', '--email', 'admin@localhost']);
    assert.equal(session.user_id, admin.user_id);
    assert.ok(Date.parse(session.expires_at) > Date.now());
    const plain = await client(server.url).get('/v1/projects', { headers: { cookie: `theme=dark; svc.session_token=${session.token}` } });
    assert.equal(plain.status, 200);
    const secure = await client(server.url).get('/v1/projects', { headers: { cookie: `__Secure-svc.session_token=${session.token}` } });
    assert.equal(secure.status, 200);
    assertError(await client(server.url).get('/api/keys', { headers: { cookie: `svc.session_token=${session.token}` } }), 401, 'not_authenticated');
    assertError(await client(server.url).get('/v1/projects', { headers: { cookie: 'svc.session_token=forged' } }), 401, 'not_authenticated');
  });
});
