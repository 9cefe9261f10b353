import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, client } from '../../helpers/http.js';
import { type Bootstrap, startBootstrappedServer } from '../../helpers/server.js';

describe('test suites (/v1): create, add, remove, list tests', () => {
  let admin: Bootstrap;
  let cleanup: () => Promise<void>;
  let api: ReturnType<typeof client>;
  const tests: Array<{ id: string; name: string; version_id: string }> = [];

  before(async () => {
    const started = await startBootstrappedServer();
    ({ admin, cleanup } = started);
    api = client(started.server.url, admin.api_key);
    for (let i = 0; i < 5; i++) {
      const res = await api.post('/api/tests', {
        name: `suite member ${i}`,
        scenario: `Scenario ${i}`,
        expected_behaviors: ['is polite'],
        mock_tools: [{ tool: 'lookup', answer: { i }, delay_ms: 10 * i }],
        project: 'default',
      });
      tests.push(res.body);
    }
  });
  after(() => cleanup());

  it('creates a suite with tests, and refuses a taken name', async () => {
    const res = await api.post(`/v1/test-suites?projectId=${admin.project_id}`, { name: 'Smoke', description: 'Runs on every deploy', testIds: [tests[0]!.id, tests[1]!.id] });
    assert.equal(res.status, 201, res.text);
    const suite = res.body.testSuite;
    assert.match(suite.id, /^sut_/);
    assert.equal(suite.projectId, admin.project_id);
    assert.equal(suite.description, 'Runs on every deploy');
    assert.deepEqual(suite.testIds, [tests[0]!.id, tests[1]!.id]);
    assert.deepEqual((await api.get(`/v1/test-suites/${suite.id}`)).body, { testSuite: suite });
    assertError(await api.post('/v1/test-suites?projectId=default', { name: 'Smoke' }), 409, 'name_taken');
    assertError(await api.post('/v1/test-suites', { name: 'No project' }), 400, 'project_required');
    assertError(await api.post('/v1/test-suites?projectId=default', { name: 'Bad', test_ids: [] }), 422, 'validation_failed');
  });

  it('adds tests (all or nothing, existing members stay) and removes them', async () => {
    const suite = (await api.post('/v1/test-suites?projectId=default', { name: 'Regression' })).body.testSuite;
    assert.deepEqual(suite.testIds, []);
    const added = await api.post(`/v1/test-suites/${suite.id}/tests`, { testIds: [tests[2]!.id, tests[3]!.id] });
    assert.equal(added.status, 200);
    assert.deepEqual(added.body.testSuite.testIds, [tests[2]!.id, tests[3]!.id]);
    const again = await api.post(`/v1/test-suites/${suite.id}/tests`, { testIds: [tests[3]!.id, tests[4]!.id] });
    assert.deepEqual(again.body.testSuite.testIds, [tests[2]!.id, tests[3]!.id, tests[4]!.id], 'a member added twice stays once, in place');
    const unknown = await api.post(`/v1/test-suites/${suite.id}/tests`, { testIds: [tests[0]!.id, 'tst_missing'] });
    assertError(unknown, 422, 'unknown_test');
    assert.deepEqual(unknown.body.details.unknown, ['tst_missing']);
    assert.ok(!(await api.get(`/v1/test-suites/${suite.id}`)).body.testSuite.testIds.includes(tests[0]!.id), 'nothing added on refusal');
    assertError(await api.post(`/v1/test-suites/${suite.id}/tests`, { testIds: [] }), 422, 'validation_failed');
    const removed = await api.delete(`/v1/test-suites/${suite.id}/tests/${tests[3]!.id}`);
    assert.equal(removed.status, 200);
    assert.deepEqual(removed.body.testSuite.testIds, [tests[2]!.id, tests[4]!.id]);
    assertError(await api.delete(`/v1/test-suites/${suite.id}/tests/${tests[3]!.id}`), 404, 'not_found');
    assertError(await api.delete(`/v1/test-suites/sut_missing/tests/${tests[3]!.id}`), 404, 'not_found');
  });

  it('lists a suite\'s tests in camelCase at their current versions, page by page', async () => {
    const suite = (await api.post('/v1/test-suites?projectId=default', { name: 'Paged', testIds: tests.map((t) => t.id) })).body.testSuite;
    const edited = await api.patch(`/api/tests/${tests[4]!.id}`, { expected_version_id: tests[4]!.version_id, scenario: 'Edited scenario' });
    const seen: any[] = [];
    let token: string | null = null;
    let pages = 0;
    do {
      const res = await api.get(`/v1/tests?suiteId=${suite.id}&pageSize=2${token ? `&pageToken=${token}` : ''}`);
      assert.equal(res.status, 200, res.text);
      seen.push(...res.body.tests);
      token = res.body.nextPageToken;
      pages++;
    } while (token);
    assert.equal(pages, 3);
    assert.deepEqual(seen.map((t) => t.id), tests.map((t) => t.id).reverse(), 'newest test first, each once');
    const latest = seen[0];
    assert.equal(latest.versionId, edited.body.version_id);
    assert.equal(latest.scenario, 'Edited scenario');
    assert.equal(latest.projectId, admin.project_id);
    assert.deepEqual(latest.expectedBehaviors, ['is polite']);
    assert.deepEqual(latest.mockTools, [{ tool: 'lookup', answer: { i: 4 }, delayMs: 40 }]);
    assert.equal(latest.project_id, undefined, 'no snake_case members on /v1');
  });

  it('requires suiteId on GET /v1/tests and refuses bad tokens', async () => {
    assertError(await api.get('/v1/tests'), 400, 'invalid_request');
    assertError(await api.get('/v1/tests?projectId=default'), 400, 'invalid_request');
    assertError(await api.get('/v1/tests?suiteId=sut_missing'), 404, 'not_found');
    const suite = (await api.get('/v1/test-suites?projectId=default')).body.testSuites[0];
    assertError(await api.get(`/v1/tests?suiteId=${suite.id}&pageToken=tst_notamember`), 400, 'invalid_request');
    assertError(await api.get(`/v1/tests?suiteId=${suite.id}&projectId=nope`), 404, 'not_found');
  });

  it('lists suites newest first with pageSize and nextPageToken', async () => {
    const names: string[] = [];
    let token: string | null = null;
    do {
      const res = await api.get(`/v1/test-suites?projectId=default&pageSize=2${token ? `&pageToken=${token}` : ''}`);
      assert.equal(res.status, 200);
      names.push(...res.body.testSuites.map((s: { name: string }) => s.name));
      token = res.body.nextPageToken;
    } while (token);
    assert.deepEqual(names, ['Paged', 'Regression', 'Smoke']);
  });
});
