import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { assertError, client } from '../../helpers/http.js';
import { type Bootstrap, startBootstrappedServer } from '../../helpers/server.js';

const unsetVoice = {
  tts_provider: null,
  tts_model: null,
  stt_provider: null,
  stt_model: null,
  voice_id: null,
  language: null,
  accent: null,
  emotion: null,
  speed: null,
  speech_volume: null,
};

describe('personas: CRUD, the project default, and how tests pin them', () => {
  let admin: Bootstrap;
  let dataDir: string;
  let cleanup: () => Promise<void>;
  let api: ReturnType<typeof client>;
  let project: { id: string; name: string };

  before(async () => {
    const started = await startBootstrappedServer();
    ({ admin, cleanup } = started);
    dataDir = started.server.dataDir;
    api = client(started.server.url, admin.api_key);
    project = (await api.post('/v1/projects', { name: 'personas' })).body.project;
  });
  after(() => cleanup());

  it('gives every project exactly one default persona, created with its first use', async () => {
    const listed = await api.get(`/api/personas?project=${project.id}`);
    assert.equal(listed.status, 200);
    assert.equal(listed.body.items.length, 1);
    const def = listed.body.items[0];
    assert.match(def.id, /^prs_/);
    assert.equal(def.name, 'default');
    assert.equal(def.is_default, true);
    assert.equal(def.project_id, project.id);
    assert.deepEqual(def.voice, unsetVoice);
    const again = await api.get(`/api/personas?project=${project.id}`);
    assert.deepEqual(again.body.items, [def], 'listing twice does not make a second default');
    const fresh = (await api.post('/v1/projects', { name: 'first use is a test' })).body.project;
    const test = (await api.post('/api/tests', { name: 't', scenario: 's', expected_behaviors: ['b'], project: fresh.id })).body;
    assert.deepEqual(test.personas, []);
    const defaults = (await api.get(`/api/personas?project=${fresh.id}`)).body.items.filter((p: { is_default: boolean }) => p.is_default);
    assert.equal(defaults.length, 1, 'a test\'s first use created the default');
  });

  it('creates, reads and edits a persona with voice settings', async () => {
    const voice = { tts_provider: 'openai', tts_model: 'gpt-4o-mini-tts', stt_provider: 'deepgram', stt_model: 'nova-3', voice_id: 'alloy', language: 'en', speed: 1.3 };
    const created = await api.post('/api/personas', { name: 'Impatient Irene', description: 'Talks fast, interrupts.', voice, project: project.name });
    assert.equal(created.status, 201, created.text);
    const irene = created.body;
    assert.equal(irene.is_default, false);
    assert.deepEqual(irene.voice, { ...unsetVoice, ...voice });
    assert.deepEqual((await api.get(`/api/personas/${irene.id}`)).body, irene);
    const edited = await api.patch(`/api/personas/${irene.id}`, { voice: { speed: null, emotion: 'annoyed' }, description: null });
    assert.equal(edited.status, 200, edited.text);
    assert.deepEqual(edited.body.voice, { ...unsetVoice, ...voice, speed: null, emotion: 'annoyed' }, 'members not sent stay; null clears');
    assert.equal(edited.body.description, null);
    assert.ok(edited.body.updated_at >= irene.updated_at);
    const names = (await api.get(`/api/personas?project=${project.id}`)).body.items.map((p: { name: string }) => p.name);
    assert.deepEqual(names, ['Impatient Irene', 'default'], 'newest first');
  });

  it('refuses voice settings the capabilities lookup does not support, with its reason, and stores nothing', async () => {
    const before = (await api.get(`/api/personas?project=${project.id}`)).body.items.length;
    const base = { tts_provider: 'openai', tts_model: 'tts-1', stt_provider: 'deepgram', stt_model: 'nova-3' };
    const emotion = await api.post('/api/personas', { name: 'Moody', voice: { ...base, emotion: 'happy' }, project: project.id });
    assertError(emotion, 422, 'voice_option_unsupported');
    assert.equal(emotion.body.details.refusals[0].field, 'emotion');
    assert.match(emotion.body.details.refusals[0].reason, /tts-1/);
    const speed = await api.post('/api/personas', { name: 'Rushed', voice: { ...base, speed: 9 }, project: project.id });
    assertError(speed, 422, 'voice_option_unsupported');
    assert.equal(speed.body.details.refusals[0].field, 'speed');
    const provider = await api.post('/api/personas', { name: 'Nowhere', voice: { ...base, tts_provider: 'provider_x' }, project: project.id });
    assertError(provider, 422, 'voice_option_unsupported');
    assert.equal(provider.body.details.refusals[0].field, 'tts_provider');
    assert.equal((await api.get(`/api/personas?project=${project.id}`)).body.items.length, before, 'nothing half-written');
    const ok = (await api.post('/api/personas', { name: 'Steady', voice: base, project: project.id })).body;
    assertError(await api.patch(`/api/personas/${ok.id}`, { voice: { emotion: 'happy' } }), 422, 'voice_option_unsupported');
    assert.equal((await api.get(`/api/personas/${ok.id}`)).body.voice.emotion, null, 'a refused edit changes nothing');
  });

  it('refuses duplicate names, id-shaped names, unknown fields and unsetting the default', async () => {
    const p = (await api.post('/api/personas', { name: 'Calm Carl', project: project.id })).body;
    assertError(await api.post('/api/personas', { name: 'Calm Carl', project: project.id }), 409, 'name_taken');
    assertError(await api.post('/api/personas', { name: 'default', project: project.id }), 409, 'name_taken');
    assertError(await api.patch(`/api/personas/${p.id}`, { name: 'default' }), 409, 'name_taken');
    assertError(await api.post('/api/personas', { name: 'prs_fake', project: project.id }), 422, 'validation_failed');
    assertError(await api.post('/api/personas', { name: 'x', voice: { pitch: 3 }, project: project.id }), 422, 'validation_failed');
    assertError(await api.post('/api/personas', { name: 'x', voice: { speed: 'fast' }, project: project.id }), 422, 'validation_failed');
    assertError(await api.patch(`/api/personas/${p.id}`, { is_default: false }), 422, 'validation_failed');
    assertError(await api.get('/api/personas/prs_missing'), 404, 'not_found');
    assertError(await api.patch('/api/personas/prs_missing', { name: 'y' }), 404, 'not_found');
    assertError(await api.get('/api/personas'), 400, 'project_required');
  });

  it('moves the default to another persona atomically', async () => {
    const before = (await api.get(`/api/personas?project=${project.id}`)).body.items;
    const oldDefault = before.find((p: { is_default: boolean }) => p.is_default);
    const target = (await api.post('/api/personas', { name: 'New default', project: project.id })).body;
    const moved = await api.patch(`/api/personas/${target.id}`, { is_default: true });
    assert.equal(moved.body.is_default, true);
    const after = (await api.get(`/api/personas?project=${project.id}`)).body.items;
    assert.deepEqual(after.filter((p: { is_default: boolean }) => p.is_default).map((p: { id: string }) => p.id), [target.id], 'still exactly one');
    assert.equal((await api.get(`/api/personas/${oldDefault.id}`)).body.is_default, false);
  });

  it('resolves test personas by name or id at mint time; a rename changes no version', async () => {
    const nora = (await api.post('/api/personas', { name: 'Nervous Nora', project: project.id })).body;
    const carl = (await api.get(`/api/personas?project=${project.id}`)).body.items.find((p: { name: string }) => p.name === 'Calm Carl');
    const test = await api.post('/api/tests', { name: 'two callers', scenario: 's', expected_behaviors: ['b'], personas: ['Nervous Nora', carl.id], project: project.id });
    assert.equal(test.status, 201, test.text);
    assert.deepEqual(test.body.personas, ['Nervous Nora', carl.id], 'the wire echoes what was written');
    await api.patch(`/api/personas/${nora.id}`, { name: 'Nora' });
    const after = (await api.get(`/api/tests/${test.body.id}`)).body;
    assert.equal(after.version_id, test.body.version_id, 'renaming a persona does not touch the test');
    const stale = await api.patch(`/api/tests/${test.body.id}`, { expected_version_id: after.version_id, personas: ['Nervous Nora'] });
    assertError(stale, 422, 'unknown_persona');
    const byNewName = await api.patch(`/api/tests/${test.body.id}`, { expected_version_id: after.version_id, personas: ['Nora', carl.id] });
    assert.equal(byNewName.body.version, 2, 'the written references changed, so a version is minted');
    const byIds = await api.patch(`/api/tests/${test.body.id}`, { expected_version_id: byNewName.body.version_id, personas: [nora.id, carl.id] });
    assert.equal(byIds.body.version, 3);
    const same = await api.patch(`/api/tests/${test.body.id}`, { expected_version_id: byIds.body.version_id, personas: [nora.id, carl.id] });
    assert.equal(same.body.version, 3, 'the same references resolving to the same personas mint nothing');
    const toDefault = await api.patch(`/api/tests/${test.body.id}`, { expected_version_id: byIds.body.version_id, personas: [] });
    assert.equal(toDefault.body.version, 4);
    assert.deepEqual(toDefault.body.personas, [], '[] means the project default');
  });

  it('pins the persona ids each version resolved, so a later default change leaves old versions as they were', async () => {
    const pinned = (versionId: string) => {
      const db = new Database(path.join(dataDir, 'svc.sqlite'), { readonly: true });
      try {
        return JSON.parse((db.prepare('SELECT persona_ids FROM test_versions WHERE id = ?').get(versionId) as { persona_ids: string }).persona_ids);
      } finally {
        db.close();
      }
    };
    const personas = (await api.get(`/api/personas?project=${project.id}`)).body.items;
    const def = personas.find((p: { is_default: boolean }) => p.is_default);
    const carl = personas.find((p: { name: string }) => p.name === 'Calm Carl');
    const v1 = (await api.post('/api/tests', { name: 'pinned', scenario: 's', expected_behaviors: ['b'], project: project.id })).body;
    assert.deepEqual(pinned(v1.version_id), [def.id], 'omitted personas pin the default of the moment');
    await api.patch(`/api/personas/${carl.id}`, { is_default: true });
    assert.deepEqual(pinned(v1.version_id), [def.id], 'moving the default does not re-point a minted version');
    const same = await api.patch(`/api/tests/${v1.id}`, { expected_version_id: v1.version_id, scenario: 's' });
    assert.equal(same.body.version, 1);
    const v2 = await api.patch(`/api/tests/${v1.id}`, { expected_version_id: v1.version_id, personas: [] });
    assert.equal(v2.body.version, 2, '[] now means another persona, so it is new content');
    assert.deepEqual(pinned(v2.body.version_id), [carl.id]);
    const named = await api.patch(`/api/tests/${v1.id}`, { expected_version_id: v2.body.version_id, personas: ['Calm Carl', def.id] });
    assert.deepEqual(pinned(named.body.version_id), [carl.id, def.id], 'in the order written');
  });
});
