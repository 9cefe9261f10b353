import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { cliHome, runCli } from '../../helpers/cli.js';
import { client } from '../../helpers/http.js';
import { type Bootstrap, type TestServer, startBootstrappedServer } from '../../helpers/server.js';

describe('CLI: svc tests, suites and personas', () => {
  let server: TestServer;
  let admin: Bootstrap;
  let cleanup: () => Promise<void>;
  let api: ReturnType<typeof client>;
  let env: Record<string, string>;
  let work: string;
  const svc = (...args: string[]) => runCli(args, env);
  const json = async (...args: string[]) => {
    const res = await svc(...args, '--json');
    assert.equal(res.code, 0, `svc ${args.join(' ')} failed: ${res.stderr}${res.stdout}`);
    return JSON.parse(res.stdout);
  };

  before(async () => {
    ({ server, admin, cleanup } = await startBootstrappedServer());
    api = client(server.url, admin.api_key);
    work = mkdtempSync(path.join(tmpdir(), 'svc-cli-tests-'));
    env = { SVC_URL: server.url, SVC_API_KEY: admin.api_key, SVC_PROJECT: 'default', XDG_CONFIG_HOME: cliHome() };
  });
  after(() => cleanup());

  it('creates, edits, lists and shows tests; a stale edit exits 5 and says so', async () => {
    const scenarioFile = path.join(work, 'scenario.txt');
    writeFileSync(scenarioFile, 'A caller was charged twice for one order.\n');
    const created = await json('tests', 'create', '--name', 'Double charge', '--scenario-file', scenarioFile, '--behavior', 'offers a refund', '--behavior', 'stays polite', '--persona', 'default');
    assert.equal(created.version, 1);
    assert.equal(created.scenario, 'A caller was charged twice for one order.');
    assert.deepEqual(created.expected_behaviors, ['offers a refund', 'stays polite']);
    assert.deepEqual(created.personas, ['default']);

    const edited = await json('tests', 'edit', created.id, '--scenario', 'A caller was charged three times.');
    assert.equal(edited.version, 2);
    const same = await svc('tests', 'edit', created.id, '--scenario', 'A caller was charged three times.');
    assert.equal(same.code, 0);
    assert.match(same.stdout, /unchanged at version 2/);

    const stale = await svc('tests', 'edit', created.id, '--expected-version', created.version_id, '--behavior', 'escalates');
    assert.equal(stale.code, 5, 'a conflict exits with the conflict code');
    assert.match(stale.stderr, /version_conflict/);
    assert.match(stale.stderr, new RegExp(edited.version_id), 'names the current version');
    assert.deepEqual((await api.get(`/api/tests/${created.id}`)).body.expected_behaviors, ['offers a refund', 'stays polite'], 'nothing written');

    const listed = await json('tests', 'list');
    assert.deepEqual(listed.tests.map((t: { id: string }) => t.id), [created.id]);
    const human = await svc('tests', 'list');
    assert.match(human.stdout, /Double charge/);
    const version = await json('tests', 'show-version', created.version_id);
    assert.equal(version.is_current, false);
    assert.equal(version.scenario, 'A caller was charged twice for one order.');
    const shown = await svc('tests', 'show-version', created.version_id);
    assert.match(shown.stdout, /superseded/);
    assert.equal((await svc('tests', 'show-version', 'tstv_missing')).code, 4);
    const show = await svc('tests', 'show', created.id);
    assert.equal(parse(show.stdout).version_id, edited.version_id, 'show prints the YAML form of pull');
    const noChange = await svc('tests', 'edit', created.id);
    assert.equal(noChange.code, 2, 'an edit without changes is a usage error');
  });

  it('round-trips pull -> edit -> push; an unchanged push mints nothing; a stale file is a conflict and is not overwritten', async () => {
    const dir = path.join(work, 'repo-tests');
    const other = (await api.post('/api/tests', { name: 'Opening hours', scenario: 'Asks when the shop opens.', expected_behaviors: ['states the hours'], mock_tools: [{ tool: 'hours', answer: { open: '09:00' } }], project: 'default' })).body;
    const pulled = await json('tests', 'pull', dir);
    assert.equal(pulled.files.length, 2);
    assert.deepEqual(readdirSync(dir).sort(), ['double-charge.yaml', 'opening-hours.yaml']);
    const file = path.join(dir, 'opening-hours.yaml');
    const onDisk = parse(readFileSync(file, 'utf8'));
    assert.equal(onDisk.id, other.id);
    assert.equal(onDisk.version_id, other.version_id);
    assert.deepEqual(onDisk.mock_tools, [{ tool: 'hours', answer: { open: '09:00' } }]);

    const unchanged = await json('tests', 'push', dir);
    assert.deepEqual(unchanged.files.map((f: { status: string }) => f.status), ['up to date', 'up to date']);
    assert.equal((await api.get(`/api/tests/${other.id}/versions`)).body.items.length, 1, 'an unchanged push mints nothing');

    const edited = readFileSync(file, 'utf8').replace('Asks when the shop opens.', 'Asks whether the shop opens on Sunday.') + '# reviewed by QA\n';
    writeFileSync(file, `# keep this comment\n${edited}`);
    const pushed = await json('tests', 'push', dir);
    const entry = pushed.files.find((f: { id: string }) => f.id === other.id);
    assert.equal(entry.status, 'new version');
    assert.equal(entry.version, 2);
    const server2 = (await api.get(`/api/tests/${other.id}`)).body;
    assert.equal(server2.scenario, 'Asks whether the shop opens on Sunday.');
    const after = readFileSync(file, 'utf8');
    assert.equal(parse(after).version_id, server2.version_id, 'the file records the version it now matches');
    assert.match(after, /# keep this comment/);
    assert.match(after, /# reviewed by QA/);

    // Someone edits the test elsewhere; the file still records version 2.
    await api.patch(`/api/tests/${other.id}`, { expected_version_id: server2.version_id, expected_behaviors: ['states the Sunday hours'] });
    const staleText = after.replace('states the hours', 'mentions holidays');
    writeFileSync(file, staleText);
    const conflict = await svc('tests', 'push', dir);
    assert.equal(conflict.code, 5, conflict.stderr);
    assert.match(conflict.stderr, /Conflict: .*opening-hours\.yaml/);
    assert.equal(readFileSync(file, 'utf8'), staleText, 'the stale file is left as it is');
    assert.deepEqual((await api.get(`/api/tests/${other.id}`)).body.expected_behaviors, ['states the Sunday hours'], 'and the server is not overwritten');

    const repulled = await json('tests', 'pull', dir);
    assert.equal(repulled.files.find((f: { id: string }) => f.id === other.id).status, 'updated');
    const fresh = readFileSync(file, 'utf8');
    assert.deepEqual(parse(fresh).expected_behaviors, ['states the Sunday hours']);
    assert.match(fresh, /# keep this comment/, 'pull updates a file in place, keeping comments');
  });

  it('push creates tests from files without an id, records the id, and reports invalid files', async () => {
    const dir = mkdtempSync(path.join(work, 'new-'));
    const file = path.join(dir, 'late-delivery.yaml');
    writeFileSync(file, 'name: Late delivery\nscenario: |\n  The parcel is a week late.\n  The caller is upset.\nexpected_behaviors:\n  - apologizes\n');
    writeFileSync(path.join(dir, 'broken.yaml'), 'name: Broken\nscenario: x\nexpected_behaviors:\n  - behavior: apologizes\n    priority: high\n');
    const res = await svc('tests', 'push', dir, '--json');
    assert.equal(res.code, 6, 'an invalid file makes push exit with the invalid-input code');
    const out = JSON.parse(res.stdout);
    const broken = out.files.find((f: { file: string }) => f.file.endsWith('broken.yaml'));
    assert.equal(broken.status, 'invalid');
    assert.match(broken.message, /plain strings/);
    const created = out.files.find((f: { file: string }) => f.file.endsWith('late-delivery.yaml'));
    assert.equal(created.status, 'created');
    const recorded = parse(readFileSync(file, 'utf8'));
    assert.equal(recorded.id, created.id);
    assert.equal(recorded.version_id, created.version_id);
    assert.equal(Object.keys(recorded)[0], 'id', 'ids go first');
    assert.equal((await api.get(`/api/tests/${created.id}`)).body.scenario, 'The parcel is a week late.\nThe caller is upset.');
    const again = await svc('tests', 'push', dir, '--json');
    const second = JSON.parse(again.stdout).files.find((f: { file: string }) => f.file.endsWith('late-delivery.yaml'));
    assert.equal(second.status, 'up to date', 'a second push edits instead of creating a duplicate');
  });

  it('manages personas and suites', async () => {
    const persona = await json('personas', 'create', '--name', 'Impatient Irene', '--language', 'en-US', '--speed', '1.3');
    assert.equal(persona.voice.speed, 1.3);
    const edited = await json('personas', 'edit', persona.id, '--emotion', 'annoyed', '--unset', 'speed', '--default');
    assert.equal(edited.voice.speed, null);
    assert.equal(edited.voice.emotion, 'annoyed');
    assert.equal(edited.is_default, true);
    const personas = await json('personas', 'list');
    assert.deepEqual(personas.personas.filter((p: { is_default: boolean }) => p.is_default).map((p: { id: string }) => p.id), [persona.id]);
    assert.equal((await svc('personas', 'create', '--name', 'Impatient Irene')).code, 5, 'a taken name exits with the conflict code');
    assert.equal(parse((await svc('personas', 'show', persona.id)).stdout).voice.emotion, 'annoyed');

    const tests = (await json('tests', 'list')).tests;
    const suite = await json('suites', 'create', '--name', 'smoke', '--test', tests[0].id);
    assert.deepEqual(suite.testIds, [tests[0].id]);
    const added = await json('suites', 'add', suite.id, tests[1].id, tests[2].id);
    assert.equal(added.testIds.length, 3);
    const removed = await json('suites', 'remove', suite.id, tests[0].id);
    assert.deepEqual(removed.testIds, [tests[1].id, tests[2].id]);
    const shown = await json('suites', 'show', suite.id);
    assert.deepEqual(shown.tests.map((t: { id: string }) => t.id).sort(), [tests[1].id, tests[2].id].sort());
    const suites = await json('suites', 'list');
    assert.deepEqual(suites.testSuites.map((s: { name: string }) => s.name), ['smoke']);
    assert.equal((await svc('suites', 'add', suite.id, 'tst_missing')).code, 6);
  });
});
