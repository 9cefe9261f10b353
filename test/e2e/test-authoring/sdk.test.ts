import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConflictError, NotFoundError, Svc, ValidationError } from '@svc/sdk';
import { type Bootstrap, startBootstrappedServer } from '../../helpers/server.js';

describe('SDK: tests, personas and test suites', () => {
  let admin: Bootstrap;
  let cleanup: () => Promise<void>;
  let svc: Svc;

  before(async () => {
    const started = await startBootstrappedServer();
    ({ admin, cleanup } = started);
    svc = new Svc({ apiKey: admin.api_key, baseUrl: started.server.url });
  });
  after(() => cleanup());

  it('iterates every test across pages with for await', async () => {
    const created: string[] = [];
    for (let i = 0; i < 7; i++) {
      const t = await svc.tests.create({ name: `sdk ${i}`, scenario: `Scenario ${i}`, expected_behaviors: ['answers'], project: 'default' });
      created.push(t.id);
    }
    const seen: string[] = [];
    for await (const test of svc.tests.list({ project: 'default', limit: 3 })) seen.push(test.id);
    assert.deepEqual(seen, [...created].reverse());
    const pages = [];
    for await (const page of svc.tests.list({ project: 'default', limit: 3 }).iterPages()) pages.push(page.items.length);
    assert.deepEqual(pages, [3, 3, 1]);
  });

  it('updates with expectedVersionId, reads versions, and surfaces a conflict as ConflictError with both ids', async () => {
    const v1 = await svc.tests.create({ name: 'sdk edit', scenario: 'First', expected_behaviors: ['a'], project: 'default' });
    const v2 = await svc.tests.update(v1.id, { expectedVersionId: v1.version_id, scenario: 'Second', mock_tools: [{ tool: 't', error: 'down' }] });
    assert.equal(v2.version, 2);
    const old = await svc.tests.getVersion(v1.version_id);
    assert.equal(old.is_current, false);
    assert.equal(old.scenario, 'First');
    const err = await svc.tests.update(v1.id, { expectedVersionId: v1.version_id, scenario: 'Third' }).catch((e: unknown) => e);
    assert.ok(err instanceof ConflictError);
    assert.equal(err.code, 'version_conflict');
    assert.deepEqual(err.details, { expected_version_id: v1.version_id, current_version_id: v2.version_id });
    const versions = await svc.tests.listVersions(v1.id).toArray();
    assert.deepEqual(versions.map((v) => v.version), [2, 1]);
    assert.equal((await svc.tests.get(v1.id)).version_id, v2.version_id);
    await assert.rejects(svc.tests.getVersion('tstv_missing'), NotFoundError);
    await assert.rejects(
      svc.tests.create({ name: 'x', scenario: 's', expected_behaviors: ['a'], personas: ['Nobody'], project: 'default' }),
      (e: unknown) => e instanceof ValidationError && e.code === 'unknown_persona',
    );
  });

  it('manages personas and suites', async () => {
    const persona = await svc.personas.create({ name: 'SDK Sam', voice: { language: 'en-GB' }, project: 'default' });
    assert.equal(persona.voice.language, 'en-GB');
    const promoted = await svc.personas.update(persona.id, { is_default: true });
    assert.equal(promoted.is_default, true);
    const all = await svc.personas.list({ project: 'default' }).toArray();
    assert.equal(all.filter((p) => p.is_default).length, 1);
    assert.equal((await svc.personas.get(persona.id)).name, 'SDK Sam');

    const tests = await svc.tests.list({ project: 'default' }).toArray();
    const suite = await svc.testSuites.create({ name: 'SDK suite', testIds: [tests[0]!.id] }, { projectId: 'default' });
    await svc.testSuites.addTests(suite.id, [tests[1]!.id, tests[2]!.id]);
    const after = await svc.testSuites.removeTest(suite.id, tests[0]!.id);
    assert.deepEqual(after.testIds, [tests[1]!.id, tests[2]!.id]);
    const members = await svc.testSuites.listTests(suite.id, { pageSize: 1 }).toArray();
    assert.deepEqual(members.map((t) => t.id), [tests[1]!.id, tests[2]!.id]);
    assert.equal(typeof members[0]!.versionId, 'string');
    const suites = await svc.testSuites.list({ projectId: 'default' }).toArray();
    assert.deepEqual(suites.map((s) => s.id), [suite.id]);
    assert.deepEqual((await svc.testSuites.get(suite.id)).testIds, after.testIds);
  });
});
