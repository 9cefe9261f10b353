import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { assertError, client } from '../../helpers/http.js';
import { type Bootstrap, type TestServer, startBootstrappedServer } from '../../helpers/server.js';

const content = {
  scenario: 'A caller wants to move a dentist appointment from Tuesday to Thursday.',
  expected_behaviors: ['confirms the new slot', 'does not cancel the appointment'],
  mock_tools: [{ tool: 'calendar.move', answer: { ok: true, slot: 'thu-10:00' }, delay_ms: 200 }],
};

describe('tests: the versioning transitions of PATCH /api/tests/:testId', () => {
  let server: TestServer;
  let admin: Bootstrap;
  let cleanup: () => Promise<void>;
  let api: ReturnType<typeof client>;
  let n = 0;

  /** A fresh test at version 1. */
  const fresh = async (extra: Record<string, unknown> = {}) => {
    const res = await api.post('/api/tests', { name: `versioning ${++n}`, ...content, project: 'default', ...extra });
    assert.equal(res.status, 201, res.text);
    return res.body;
  };

  before(async () => {
    ({ server, admin, cleanup } = await startBootstrappedServer());
    api = client(server.url, admin.api_key);
  });
  after(() => cleanup());

  it('creates version 1 with the contract\'s test object', async () => {
    const test = await fresh();
    assert.match(test.id, /^tst_/);
    assert.match(test.version_id, /^tstv_/);
    assert.equal(test.version, 1);
    assert.equal(test.project_id, admin.project_id);
    assert.equal(test.scenario, content.scenario);
    assert.deepEqual(test.expected_behaviors, content.expected_behaviors);
    assert.deepEqual(test.personas, [], 'omitted personas show as [] (the project default)');
    assert.deepEqual(test.mock_tools, content.mock_tools);
    assert.equal(test.created_at, test.updated_at);
    const version = await api.get(`/api/test-versions/${test.version_id}`);
    assert.equal(version.status, 200);
    assert.deepEqual(version.body, {
      id: test.version_id,
      test_id: test.id,
      name: test.name,
      version: 1,
      is_current: true,
      scenario: test.scenario,
      expected_behaviors: test.expected_behaviors,
      personas: [],
      mock_tools: test.mock_tools,
      created_at: test.created_at,
    });
  });

  it('row 1: a content change from the current version mints N+1 and the earlier version reports not-current', async () => {
    const v1 = await fresh();
    const changes: Array<[string, unknown]> = [
      ['scenario', 'A caller wants to cancel the appointment altogether.'],
      ['expected_behaviors', ['asks for the reason']],
      ['personas', ['default']],
      ['mock_tools', [{ tool: 'calendar.move', error: 'calendar unavailable' }]],
    ];
    let previous = v1;
    for (const [field, value] of changes) {
      const res = await api.patch(`/api/tests/${v1.id}`, { expected_version_id: previous.version_id, [field]: value });
      assert.equal(res.status, 200, `${field}: ${res.text}`);
      assert.equal(res.body.version, previous.version + 1, `${field} mints the next version`);
      assert.notEqual(res.body.version_id, previous.version_id);
      assert.deepEqual(res.body[field], value);
      assert.ok(res.body.updated_at >= previous.updated_at);
      const old = await api.get(`/api/test-versions/${previous.version_id}`);
      assert.equal(old.body.is_current, false, `${field}: the earlier version is no longer current`);
      previous = res.body;
    }
    assert.equal(previous.version, 5);
    const history = await api.get(`/api/tests/${v1.id}/versions`);
    assert.deepEqual(history.body.items.map((v: { version: number }) => v.version), [5, 4, 3, 2, 1]);
    assert.deepEqual(history.body.items.map((v: { is_current: boolean }) => v.is_current), [true, false, false, false, false]);
  });

  it('row 2: identical content mints nothing and returns the current version', async () => {
    const v1 = await fresh();
    const same = await api.patch(`/api/tests/${v1.id}`, { expected_version_id: v1.version_id, ...content, personas: [] });
    assert.equal(same.status, 200);
    assert.deepEqual(same.body, v1, 'the very same test object: no new version, no new updated_at');
    const reordered = await api.patch(`/api/tests/${v1.id}`, {
      expected_version_id: v1.version_id,
      mock_tools: [{ delay_ms: 200, answer: { slot: 'thu-10:00', ok: true }, tool: 'calendar.move' }],
    });
    assert.equal(reordered.body.version_id, v1.version_id, 'key order inside an answer is not a content change');
    const empty = await api.patch(`/api/tests/${v1.id}`, { expected_version_id: v1.version_id });
    assert.equal(empty.body.version_id, v1.version_id);
    const history = await api.get(`/api/tests/${v1.id}/versions`);
    assert.equal(history.body.items.length, 1);
  });

  it('row 3: a name-only change renames without a new version', async () => {
    const v1 = await fresh();
    const renamed = await api.patch(`/api/tests/${v1.id}`, { expected_version_id: v1.version_id, name: `${v1.name} (renamed)` });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.name, `${v1.name} (renamed)`);
    assert.equal(renamed.body.version, 1);
    assert.equal(renamed.body.version_id, v1.version_id);
    assert.ok(renamed.body.updated_at >= v1.updated_at, 'a rename touches updated_at');
    const version = await api.get(`/api/test-versions/${v1.version_id}`);
    assert.equal(version.body.name, renamed.body.name, 'names are not versioned: the version shows the current name');
    assert.equal(version.body.is_current, true);
    const both = await api.patch(`/api/tests/${v1.id}`, { expected_version_id: v1.version_id, name: 'renamed and changed', scenario: 'Another story.' });
    assert.equal(both.body.name, 'renamed and changed');
    assert.equal(both.body.version, 2, 'a rename together with a content change still mints');
  });

  it('row 4: a stale expected_version_id is 409 version_conflict carrying both ids, and changes nothing', async () => {
    const v1 = await fresh();
    const v2 = (await api.patch(`/api/tests/${v1.id}`, { expected_version_id: v1.version_id, scenario: 'Second take.' })).body;
    const stale = await api.patch(`/api/tests/${v1.id}`, { expected_version_id: v1.version_id, scenario: 'Third take.', name: 'stale rename' });
    assertError(stale, 409, 'version_conflict');
    assert.deepEqual(stale.body.details, { expected_version_id: v1.version_id, current_version_id: v2.version_id });
    const staleSame = await api.patch(`/api/tests/${v1.id}`, { expected_version_id: v1.version_id, scenario: 'Second take.' });
    assertError(staleSame, 409, 'version_conflict');
    const now = await api.get(`/api/tests/${v1.id}`);
    assert.deepEqual(now.body, v2, 'neither the name nor the content moved');
    const foreign = await api.patch(`/api/tests/${v1.id}`, { expected_version_id: 'tstv_doesnotexist', scenario: 'x' });
    assertError(foreign, 409, 'version_conflict');
    assert.equal(foreign.body.details.current_version_id, v2.version_id);
  });

  it('lets exactly one of 20 concurrent edits from one version win; the 19 others get version_conflict', async () => {
    const v1 = await fresh();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => api.patch(`/api/tests/${v1.id}`, { expected_version_id: v1.version_id, scenario: `Concurrent edit number ${i}.` })),
    );
    const won = results.filter((r) => r.status === 200);
    const lost = results.filter((r) => r.status === 409);
    assert.equal(won.length, 1, results.map((r) => r.status).join(','));
    assert.equal(lost.length, 19);
    for (const r of lost) {
      assertError(r, 409, 'version_conflict');
      assert.deepEqual(r.body.details, { expected_version_id: v1.version_id, current_version_id: won[0]!.body.version_id });
    }
    const history = await api.get(`/api/tests/${v1.id}/versions`);
    assert.deepEqual(history.body.items.map((v: { version: number }) => v.version), [2, 1], 'exactly one new version');
    assert.equal(history.body.items[0].scenario, won[0]!.body.scenario);
  });

  it('keeps old versions frozen after later edits', async () => {
    const v1 = await fresh({ personas: ['default'] });
    const frozen = (await api.get(`/api/test-versions/${v1.version_id}`)).body;
    let current = v1;
    for (let i = 0; i < 3; i++) {
      current = (
        await api.patch(`/api/tests/${v1.id}`, {
          expected_version_id: current.version_id,
          scenario: `Rewrite ${i}`,
          expected_behaviors: [`behavior ${i}`],
          personas: [],
          mock_tools: [{ tool: 'calendar.move', error: `failure ${i}` }],
        })
      ).body;
    }
    assert.equal(current.version, 4);
    const later = (await api.get(`/api/test-versions/${v1.version_id}`)).body;
    assert.equal(later.is_current, false);
    assert.deepEqual({ ...later, is_current: true }, frozen, 'every content field of version 1 is unchanged');
    const v2 = (await api.get(`/api/tests/${v1.id}/versions`)).body.items.find((v: { version: number }) => v.version === 2);
    assert.equal(v2.scenario, 'Rewrite 0');
    assert.deepEqual(v2.mock_tools, [{ tool: 'calendar.move', error: 'failure 0' }]);
    const db = new Database(path.join(server.dataDir, 'svc.sqlite'));
    try {
      assert.throws(() => db.prepare('UPDATE test_versions SET scenario = ? WHERE id = ?').run('tampered', v1.version_id), /immutable/);
      assert.throws(() => db.prepare('DELETE FROM test_versions WHERE id = ?').run(v1.version_id), /never deleted/);
    } finally {
      db.close();
    }
    assert.equal((await api.get(`/api/test-versions/${v1.version_id}`)).body.scenario, content.scenario, 'the store itself refuses to change a version');
  });

  it('answers 404 for unknown tests and versions', async () => {
    assertError(await api.patch('/api/tests/tst_nothere', { expected_version_id: 'tstv_x', scenario: 'x' }), 404, 'not_found');
    assertError(await api.get('/api/tests/tst_nothere'), 404, 'not_found');
    assertError(await api.get('/api/test-versions/tstv_nothere'), 404, 'not_found');
    assertError(await api.get('/api/tests/tst_nothere/versions'), 404, 'not_found');
  });
});
