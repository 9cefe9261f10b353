import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, client } from '../../helpers/http.js';
import { type Bootstrap, type TestServer, hostCommand, startBootstrappedServer } from '../../helpers/server.js';

const body = { scenario: 'A caller asks for opening hours.', expected_behaviors: ['states the hours'] };

describe('test authoring: tenancy and roles', () => {
  let server: TestServer;
  let admin: Bootstrap;
  let cleanup: () => Promise<void>;
  let api: ReturnType<typeof client>;
  let other: { id: string; name: string };
  let secret: { test: any; persona: any; suite: any };
  let asDefault: ReturnType<typeof client>;

  before(async () => {
    ({ server, admin, cleanup } = await startBootstrappedServer());
    api = client(server.url, admin.api_key);
    other = (await api.post('/v1/projects', { name: 'secret project' })).body.project;
    const test = (await api.post('/api/tests', { ...body, name: 'hidden test', project: other.id })).body;
    const persona = (await api.post('/api/personas', { name: 'hidden persona', project: other.id })).body;
    const suite = (await api.post(`/v1/test-suites?projectId=${other.id}`, { name: 'hidden suite', testIds: [test.id] })).body.testSuite;
    secret = { test, persona, suite };
    const key = await api.post('/api/keys', { name: 'default only', project_id: admin.project_id });
    asDefault = client(server.url, key.body.secret);
  });
  after(() => cleanup());

  it('a project key works in its own project without naming it', async () => {
    const created = await asDefault.post('/api/tests', { ...body, name: 'mine' });
    assert.equal(created.status, 201);
    assert.equal(created.body.project_id, admin.project_id);
    const listed = await asDefault.get('/api/tests');
    assert.deepEqual(listed.body.items.map((t: { id: string }) => t.id), [created.body.id]);
    assert.equal((await asDefault.get('/api/personas')).body.items.length, 1, 'only its project\'s default persona');
    assert.equal((await asDefault.get('/v1/test-suites')).body.testSuites.length, 0);
  });

  it('a project key cannot see another project\'s tests, versions, personas or suites by id (404, no leak)', async () => {
    const invisible = [
      await asDefault.get(`/api/tests/${secret.test.id}`),
      await asDefault.get(`/api/test-versions/${secret.test.version_id}`),
      await asDefault.get(`/api/tests/${secret.test.id}/versions`),
      await asDefault.patch(`/api/tests/${secret.test.id}`, { expected_version_id: secret.test.version_id, scenario: 'hijack' }),
      await asDefault.get(`/api/personas/${secret.persona.id}`),
      await asDefault.patch(`/api/personas/${secret.persona.id}`, { name: 'hijack' }),
      await asDefault.get(`/v1/test-suites/${secret.suite.id}`),
      await asDefault.post(`/v1/test-suites/${secret.suite.id}/tests`, { testIds: [secret.test.id] }),
      await asDefault.delete(`/v1/test-suites/${secret.suite.id}/tests/${secret.test.id}`),
      await asDefault.get(`/v1/tests?suiteId=${secret.suite.id}`),
    ];
    for (const res of invisible) {
      assertError(res, 404, 'not_found');
      assert.ok(!res.text.includes('hidden'), 'nothing of the other project in the body');
    }
    const still = await api.get(`/api/tests/${secret.test.id}`);
    assert.deepEqual(still.body, secret.test, 'the hijack attempt changed nothing');
  });

  it('a project key naming another project is 403, whichever way it names it', async () => {
    for (const named of [other.id, other.name]) {
      assertError(await asDefault.get(`/api/tests?project=${encodeURIComponent(named)}`), 403, 'not_permitted');
      assertError(await asDefault.post('/api/tests', { ...body, name: 'x', project: named }), 403, 'not_permitted');
      assertError(await asDefault.get(`/api/personas?project=${encodeURIComponent(named)}`), 403, 'not_permitted');
      assertError(await asDefault.post('/api/personas', { name: 'x', project: named }), 403, 'not_permitted');
      assertError(await asDefault.get(`/v1/test-suites?projectId=${encodeURIComponent(named)}`), 403, 'not_permitted');
      assertError(await asDefault.post(`/v1/test-suites?projectId=${encodeURIComponent(named)}`, { name: 'x' }), 403, 'not_permitted');
      assertError(await asDefault.patch(`/api/tests/${secret.test.id}`, { expected_version_id: secret.test.version_id, project: named }), 403, 'not_permitted');
    }
  });

  it('cannot put another project\'s tests or personas into its own', async () => {
    const res = await asDefault.post('/api/tests', { ...body, name: 'borrower', personas: [secret.persona.id] });
    assertError(res, 422, 'unknown_persona');
    const byName = await asDefault.post('/api/tests', { ...body, name: 'borrower', personas: ['hidden persona'] });
    assertError(byName, 422, 'unknown_persona');
    const suite = await asDefault.post('/v1/test-suites', { name: 'borrowed', testIds: [secret.test.id] });
    assertError(suite, 422, 'unknown_test');
    assert.equal((await asDefault.get('/v1/test-suites')).body.testSuites.length, 0, 'the refused suite was not created');
  });

  it('an org-wide key reaches every project and scopes by-id edits to a named project', async () => {
    assert.equal((await api.get(`/api/tests/${secret.test.id}`)).status, 200);
    const wrongProject = await api.patch(`/api/tests/${secret.test.id}`, { expected_version_id: secret.test.version_id, scenario: 'x', project: 'default' });
    assertError(wrongProject, 404, 'not_found');
    const right = await api.patch(`/api/tests/${secret.test.id}`, { expected_version_id: secret.test.version_id, name: 'hidden test', project: other.name });
    assert.equal(right.status, 200);
  });

  it('a viewer reads everything but writes nothing', async () => {
    await hostCommand(server.dataDir, ['user', 'create', '--email', 'viewer@example.com', '--role', 'viewer']);
    const key = await hostCommand<{ secret: string }>(server.dataDir, ['keys', 'create', '--email', 'viewer@example.com']);
    const viewer = client(server.url, key.secret);
    assert.equal((await viewer.get(`/api/tests?project=${other.id}`)).status, 200);
    assert.equal((await viewer.get(`/api/test-versions/${secret.test.version_id}`)).status, 200);
    assert.equal((await viewer.get(`/api/personas?project=${other.id}`)).status, 200);
    assert.equal((await viewer.get(`/v1/tests?suiteId=${secret.suite.id}`)).status, 200);
    const writes = [
      await viewer.post('/api/tests', { ...body, name: 'viewer made', project: other.id }),
      await viewer.patch(`/api/tests/${secret.test.id}`, { expected_version_id: secret.test.version_id, scenario: 'viewer edit' }),
      await viewer.post('/api/personas', { name: 'viewer persona', project: other.id }),
      await viewer.patch(`/api/personas/${secret.persona.id}`, { description: 'viewer edit' }),
      await viewer.post(`/v1/test-suites?projectId=${other.id}`, { name: 'viewer suite' }),
      await viewer.post(`/v1/test-suites/${secret.suite.id}/tests`, { testIds: [secret.test.id] }),
      await viewer.delete(`/v1/test-suites/${secret.suite.id}/tests/${secret.test.id}`),
    ];
    for (const res of writes) assertError(res, 403, 'not_permitted');
    assert.equal((await api.get(`/api/tests?project=${other.id}`)).body.items.length, 1, 'nothing was written');
    assert.deepEqual((await api.get(`/v1/test-suites/${secret.suite.id}`)).body.testSuite.testIds, [secret.test.id]);
  });

  it('requires a credential', async () => {
    assertError(await client(server.url).get('/api/tests?project=default'), 401, 'not_authenticated');
    assertError(await client(server.url).get('/v1/test-suites?projectId=default'), 401, 'not_authenticated');
  });
});
