import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, client } from '../../helpers/http.js';
import { type Bootstrap, startBootstrappedServer } from '../../helpers/server.js';

describe('GET /api/tests: newest-first keyset pages', () => {
  let admin: Bootstrap;
  let cleanup: () => Promise<void>;
  let api: ReturnType<typeof client>;
  let project: { id: string; name: string };

  const create = async (name: string) => {
    const res = await api.post('/api/tests', { name, scenario: `Scenario of ${name}`, expected_behaviors: ['greets'], project: project.id });
    assert.equal(res.status, 201, res.text);
    return res.body as { id: string; name: string };
  };

  before(async () => {
    const started = await startBootstrappedServer();
    ({ admin, cleanup } = started);
    api = client(started.server.url, admin.api_key);
    project = (await api.post('/v1/projects', { name: 'paging' })).body.project;
  });
  after(() => cleanup());

  it('walks every test once across page boundaries while tests are created between pages', async () => {
    const initial: string[] = [];
    for (let i = 0; i < 7; i++) initial.push((await create(`t${i}`)).id);
    const seen: string[] = [];
    const inserted: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await api.get(`/api/tests?project=${project.id}&limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(res.status, 200);
      assert.ok(res.body.items.length <= 3);
      const ids = res.body.items.map((t: { id: string }) => t.id);
      seen.push(...ids);
      cursor = res.body.next_cursor;
      if (cursor) assert.equal(cursor, ids[ids.length - 1], 'next_cursor is the id of the last item');
      // Newer tests appear between pages; they belong before the first page and must not show up later.
      inserted.push((await create(`between ${pages}`)).id);
      pages++;
    } while (cursor);
    assert.deepEqual(seen, [...initial].reverse(), 'all seven, newest first, none twice, none missed');
    assert.equal(pages, 3);
    const first = await api.get(`/api/tests?project=${project.id}&limit=${inserted.length}`);
    assert.deepEqual(first.body.items.map((t: { id: string }) => t.id), [...inserted].reverse(), 'the inserts are at the head of a fresh walk');
  });

  it('ends with a null next_cursor exactly on the last page, also when it is full', async () => {
    const other = (await api.post('/v1/projects', { name: 'exact' })).body.project;
    for (let i = 0; i < 4; i++) await api.post('/api/tests', { name: `e${i}`, scenario: 's', expected_behaviors: ['b'], project: other.id });
    const one = await api.get(`/api/tests?project=${other.id}&limit=2`);
    assert.ok(one.body.next_cursor);
    const two = await api.get(`/api/tests?project=${other.id}&limit=2&cursor=${one.body.next_cursor}`);
    assert.equal(two.body.items.length, 2);
    assert.equal(two.body.next_cursor, null, 'no empty trailing page');
    const all = await api.get(`/api/tests?project=${other.id}`);
    assert.equal(all.body.items.length, 4, 'default limit covers them');
    assert.deepEqual(all.body.items.map((t: { name: string }) => t.name), ['e3', 'e2', 'e1', 'e0']);
  });

  it('shows a test at its current version in the list, and editing does not move it', async () => {
    const a = await create('edited later');
    await create('created after');
    const edited = await api.patch(`/api/tests/${a.id}`, { expected_version_id: (a as unknown as { version_id: string }).version_id, scenario: 'New scenario' });
    const listed = (await api.get(`/api/tests?project=${project.id}&limit=2`)).body.items;
    assert.equal(listed[0].name, 'created after', 'order is by creation, not by edit');
    assert.equal(listed[1].id, a.id);
    assert.equal(listed[1].version, 2);
    assert.equal(listed[1].version_id, edited.body.version_id);
  });

  it('refuses a cursor from another project', async () => {
    const foreign = await api.post('/api/tests', { name: 'elsewhere', scenario: 's', expected_behaviors: ['b'], project: 'default' });
    assertError(await api.get(`/api/tests?project=${project.id}&cursor=${foreign.body.id}`), 400, 'invalid_request');
  });
});
