import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { assertError, client } from '../../helpers/http.js';
import { SERVER_BIN } from '../../helpers/paths.js';
import { type Bootstrap, type TestServer, hostCommand, startBootstrappedServer } from '../../helpers/server.js';

const run = promisify(execFile);
const LIMIT = 20;

describe('svc-server organization create: a second tenant on the same server', () => {
  let server: TestServer;
  let admin: Bootstrap;
  let second: Bootstrap;
  let cleanup: () => Promise<void>;

  before(async () => {
    ({ server, admin, cleanup } = await startBootstrappedServer({ env: { SVC_RATE_LIMIT_PER_MINUTE: String(LIMIT) } }));
    // While the server runs: the command touches only the relational store.
    second = await hostCommand<Bootstrap>(server.dataDir, ['organization', 'create', '--name', 'acme', '--admin-email', 'Boss@Acme.test']);
  });
  after(() => cleanup());

  it('prints new ids and an admin key that works at once, confined to its organization', async () => {
    assert.match(second.organization_id, /^org_/);
    assert.notEqual(second.organization_id, admin.organization_id);
    assert.notEqual(second.project_id, admin.project_id);
    const api = client(server.url, second.api_key);
    const keys = await api.get('/api/keys');
    assert.equal(keys.status, 200, keys.text);
    assert.deepEqual(
      keys.body.keys.map((k: { organization_id: string; name: string; scope: string }) => [k.organization_id, k.name, k.scope]),
      [[second.organization_id, 'organization admin', 'organization']],
    );
    const projects = await api.get('/v1/projects');
    assert.deepEqual(projects.body.projects.map((p: { id: string; name: string }) => [p.id, p.name]), [[second.project_id, 'default']]);
    const members = await api.get('/v1/members');
    assert.deepEqual(members.body.members.map((m: { email: string; role: string }) => [m.email, m.role]), [['boss@acme.test', 'admin']]);
    // The first organization's project is invisible to the second, by id and by name.
    assertError(await api.get(`/api/tests?project=${admin.project_id}`), 404, 'not_found');
    const own = await client(server.url, admin.api_key).get('/v1/projects');
    assert.ok(!own.body.projects.some((p: { id: string }) => p.id === second.project_id));
  });

  it('counts the rate limit per organization: one exhausted tenant does not limit the other', async () => {
    const first = client(server.url, admin.api_key);
    let last = await first.get('/api/keys');
    for (let i = 0; i < LIMIT && last.status !== 429; i++) last = await first.get('/api/keys');
    assertError(last, 429, 'too_many_requests');
    const other = await client(server.url, second.api_key).get('/v1/projects');
    assert.equal(other.status, 200, other.text);
  });

  it('refuses an email that already has a user, and an empty name', async () => {
    for (const args of [['--name', 'again', '--admin-email', 'boss@acme.test'], ['--name', '  ', '--admin-email', 'x@acme.test']]) {
      await assert.rejects(run(process.execPath, [SERVER_BIN, 'organization', 'create', ...args, '--data-dir', server.dataDir, '--json']), (err: { code: number; stderr: string }) => {
        assert.equal(err.code, 1);
        assert.match(err.stderr, /already exists|must not be empty/);
        return true;
      });
    }
  });

  it('makes user create name the organization once there are several', async () => {
    await assert.rejects(run(process.execPath, [SERVER_BIN, 'user', 'create', '--email', 'm@acme.test', '--data-dir', server.dataDir]), /several organizations/);
    await assert.rejects(
      run(process.execPath, [SERVER_BIN, 'user', 'create', '--email', 'm@acme.test', '--organization', 'org_missing', '--data-dir', server.dataDir]),
      /no organization org_missing/,
    );
    const member = await hostCommand<{ email: string; role: string }>(server.dataDir, ['user', 'create', '--email', 'm@acme.test', '--organization', second.organization_id]);
    assert.equal(member.role, 'member');
    const key = await hostCommand<{ organization_id: string }>(server.dataDir, ['keys', 'create', '--email', 'm@acme.test']);
    assert.equal(key.organization_id, second.organization_id, 'a user\'s keys belong to its organization');
  });
});
