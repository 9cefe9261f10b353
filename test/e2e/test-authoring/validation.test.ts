import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, client } from '../../helpers/http.js';
import { type Bootstrap, startBootstrappedServer } from '../../helpers/server.js';

const valid = { scenario: 'A caller asks for a refund of a double charge.', expected_behaviors: ['offers a refund'], project: 'default' };

describe('tests: refusals of bad input, and nothing half-written', () => {
  let admin: Bootstrap;
  let cleanup: () => Promise<void>;
  let api: ReturnType<typeof client>;
  const count = async () => (await api.get('/api/tests?project=default&limit=100')).body.items.length;

  before(async () => {
    const started = await startBootstrappedServer();
    ({ admin, cleanup } = started);
    api = client(started.server.url, admin.api_key);
  });
  after(() => cleanup());

  it('refuses the object form of expected behaviors with 422, naming the field', async () => {
    const res = await api.post('/api/tests', { ...valid, name: 'objects', expected_behaviors: [{ behavior: 'offers a refund', priority: 'high' }] });
    assertError(res, 422, 'validation_failed');
    assert.equal(res.body.details.issues[0].path, 'expected_behaviors.0');
    assert.match(res.body.details.issues[0].message, /plain strings/);
    const test = (await api.post('/api/tests', { ...valid, name: 'plain' })).body;
    const patch = await api.patch(`/api/tests/${test.id}`, { expected_version_id: test.version_id, expected_behaviors: ['ok', { behavior: 'x', priority: 1 }] });
    assertError(patch, 422, 'validation_failed');
    assert.equal(patch.body.details.issues[0].path, 'expected_behaviors.1');
    assertError(await api.post('/api/tests', { ...valid, name: 'none', expected_behaviors: [] }), 422, 'validation_failed');
  });

  it('refuses unknown personas with 422 unknown_persona listing them', async () => {
    const res = await api.post('/api/tests', { ...valid, name: 'ghost caller', personas: ['default', 'Ghost', 'prs_nobody'] });
    assertError(res, 422, 'unknown_persona');
    assert.deepEqual(res.body.details.unknown, ['Ghost', 'prs_nobody']);
    const test = (await api.post('/api/tests', { ...valid, name: 'persona edit' })).body;
    const patch = await api.patch(`/api/tests/${test.id}`, { expected_version_id: test.version_id, personas: ['Ghost'] });
    assertError(patch, 422, 'unknown_persona');
    assert.equal((await api.get(`/api/tests/${test.id}`)).body.version, 1);
    const twice = await api.post('/api/tests', { ...valid, name: 'twice', personas: ['default', 'default'] });
    assertError(twice, 422, 'validation_failed');
    assert.equal(twice.body.details.issues[0].path, 'personas.1');
  });

  it('refuses bad mock tools: both or neither outcome, bad delays, a tool twice, wrong types', async () => {
    const bad: Array<[unknown, string]> = [
      [[{ tool: 'crm.lookup', answer: 1, error: 'boom' }], 'mock_tools.0'],
      [[{ tool: 'crm.lookup' }], 'mock_tools.0'],
      [[{ tool: 'crm.lookup', answer: 1, delay_ms: -1 }], 'mock_tools.0.delay_ms'],
      [[{ tool: 'crm.lookup', answer: 1, delay_ms: 1.5 }], 'mock_tools.0.delay_ms'],
      [[{ tool: 'crm.lookup', error: { message: 'x' } }], 'mock_tools.0.error'],
      [[{ tool: '', answer: 1 }], 'mock_tools.0.tool'],
      [[{ tool: 'crm.lookup', answer: 1, latency: 3 }], 'mock_tools.0'],
      [[{ tool: 'a', answer: 1 }, { tool: 'a', error: 'x' }], 'mock_tools.1.tool'],
      [{ tool: 'a', answer: 1 }, 'mock_tools'],
    ];
    for (const [mockTools, path] of bad) {
      const res = await api.post('/api/tests', { ...valid, name: 'mock', mock_tools: mockTools });
      assertError(res, 422, 'validation_failed');
      assert.ok(res.body.details.issues.some((i: { path: string }) => i.path === path), `${JSON.stringify(mockTools)} -> ${res.text}`);
    }
    const ok = await api.post('/api/tests', {
      ...valid,
      name: 'mock ok',
      mock_tools: [{ tool: 'a', answer: null }, { tool: 'b', answer: [1, 'two'], delay_ms: 0 }, { tool: 'c', error: 'timeout', delay_ms: 1500 }],
    });
    assert.equal(ok.status, 201, ok.text);
    assert.deepEqual(ok.body.mock_tools[0], { tool: 'a', answer: null }, 'null is a valid answer');
  });

  it('refuses unknown fields, missing fields and a malformed expected_version_id', async () => {
    const extra = await api.post('/api/tests', { ...valid, name: 'extra', priority: 'high' });
    assertError(extra, 422, 'validation_failed');
    assert.match(extra.body.details.issues[0].message, /priority/);
    assertError(await api.post('/api/tests', { name: 'no scenario', expected_behaviors: ['x'], project: 'default' }), 422, 'validation_failed');
    const test = (await api.post('/api/tests', { ...valid, name: 'patch target' })).body;
    assertError(await api.patch(`/api/tests/${test.id}`, { scenario: 'no expected version' }), 422, 'validation_failed');
    assertError(await api.patch(`/api/tests/${test.id}`, { expected_version_id: test.id, scenario: 'x' }), 422, 'validation_failed');
    assertError(await api.patch(`/api/tests/${test.id}`, { expected_version_id: test.version_id, version: 7 }), 422, 'validation_failed');
    assertError(await api.post('/api/tests', { ...valid, name: '   ' }), 422, 'validation_failed');
    assertError(await api.post('/api/tests', { ...valid, name: 'bad json' }, { contentType: 'text/plain' }), 400, 'invalid_request');
  });

  it('keeps names unique in the project on create and on rename, and writes nothing on refusal', async () => {
    const first = (await api.post('/api/tests', { ...valid, name: 'Unique name' })).body;
    const second = (await api.post('/api/tests', { ...valid, name: 'Other name' })).body;
    const before = await count();
    assertError(await api.post('/api/tests', { ...valid, name: 'Unique name' }), 409, 'name_taken');
    assert.equal(await count(), before, 'no test was created');
    const rename = await api.patch(`/api/tests/${second.id}`, { expected_version_id: second.version_id, name: 'Unique name', scenario: 'A change that must not land.' });
    assertError(rename, 409, 'name_taken');
    const after = (await api.get(`/api/tests/${second.id}`)).body;
    assert.deepEqual(after, second, 'neither the rename nor the content change landed');
    assert.equal((await api.get(`/api/tests/${second.id}/versions`)).body.items.length, 1, 'no version was minted');
    const self = await api.patch(`/api/tests/${first.id}`, { expected_version_id: first.version_id, name: 'Unique name' });
    assert.equal(self.status, 200, 'keeping one\'s own name is fine');
    const other = await api.post('/v1/projects', { name: 'names elsewhere' });
    assert.equal((await api.post('/api/tests', { ...valid, name: 'Unique name', project: other.body.project.id })).status, 201, 'names are per project');
  });

  it('refuses bad list queries with 400', async () => {
    assertError(await api.get('/api/tests?project=default&limit=0'), 400, 'invalid_request');
    assertError(await api.get('/api/tests?project=default&limit=101'), 400, 'invalid_request');
    assertError(await api.get('/api/tests?project=default&cursor=tst_unknown'), 400, 'invalid_request');
    assertError(await api.get('/api/tests?project=default&sort=name'), 400, 'invalid_request');
    assertError(await api.get('/api/tests'), 400, 'project_required');
    assertError(await api.get('/api/tests?project=nope'), 404, 'not_found');
  });
});
