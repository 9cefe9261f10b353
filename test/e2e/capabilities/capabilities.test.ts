import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../../helpers/cli.js';
import { assertCapabilitiesShape } from '../../helpers/capabilities-schema.js';
import { assertError, client } from '../../helpers/http.js';
import { type Bootstrap, type TestServer, startBootstrappedServer, startServer, bootstrappedDataDir } from '../../helpers/server.js';

type Caps = Record<'voices' | 'language' | 'accent' | 'emotion' | 'speed' | 'speechVolume', any>;

describe('GET /v1/persona-capabilities', () => {
  let server: TestServer;
  let admin: Bootstrap;
  let cleanup: () => Promise<void>;
  let api: ReturnType<typeof client>;
  const statuses = new Set<string>();

  /** A 200 lookup, checked against the strict schema; records every status seen. */
  async function caps(query: Record<string, string>): Promise<Caps> {
    const res = await api.get(`/v1/persona-capabilities?${new URLSearchParams(query)}`);
    assert.equal(res.status, 200, res.text);
    assertCapabilitiesShape(res.body);
    for (const member of Object.values(res.body as Caps)) statuses.add(member.status);
    return res.body;
  }
  const combo = (tts: string, ttsModel: string, stt: string, sttModel: string, extra: Record<string, string> = {}) =>
    caps({ ttsProvider: tts, ttsModel, sttProvider: stt, sttModel, ...extra });

  before(async () => {
    ({ server, admin, cleanup } = await startBootstrappedServer());
    api = client(server.url, admin.api_key);
  });
  after(() => cleanup());

  it('openai tts-1 with deepgram nova-3: voices and speed supported, emotion and volume unsupported, accent unknown', async () => {
    const c = await combo('openai', 'tts-1', 'deepgram', 'nova-3');
    assert.equal(c.voices.status, 'supported');
    assert.deepEqual(c.voices.choices.map((v: { id: string }) => v.id), ['alloy', 'ash', 'coral', 'echo', 'fable', 'onyx', 'nova', 'sage', 'shimmer']);
    assert.equal(c.language.status, 'supported');
    assert.ok(c.language.choices.includes('en') && c.language.choices.includes('de'));
    assert.ok(!c.language.choices.includes('af'), 'Afrikaans: OpenAI yes, nova-3 no');
    assert.ok(!c.language.choices.includes('multi'), 'multi is a mode, not a language');
    assert.equal(c.accent.status, 'unknown');
    assert.equal(c.emotion.status, 'unsupported');
    assert.match(c.emotion.reason, /instructions/);
    assert.deepEqual(c.speed, { status: 'supported', reason: c.speed.reason, range: { minimum: 0.25, maximum: 4, step: 0.01 } });
    assert.equal(c.speechVolume.status, 'unsupported');
  });

  it('deepgram aura with an English-only recogniser: language fixed to en; speed unknown as the catalog records', async () => {
    const c = await combo('deepgram', 'aura', 'assemblyai', 'universal-streaming-english');
    assert.deepEqual([c.language.status, c.language.value, c.language.choices], ['fixed', 'en', ['en']]);
    assert.equal(c.speed.status, 'unknown');
    assert.match(c.speed.reason, /Aura-2/);
    assert.equal(c.accent.status, 'supported');
    assert.deepEqual(c.accent.choices, ['American', 'British', 'Irish']);
  });

  it('a voice narrows language and accent: aura-2 celeste is Colombian Spanish', async () => {
    const c = await combo('deepgram', 'aura-2', 'deepgram', 'nova-3', { voiceId: 'aura-2-celeste-es' });
    assert.equal(c.voices.value.id, 'aura-2-celeste-es');
    assert.deepEqual([c.language.status, c.language.value], ['fixed', 'es']);
    assert.deepEqual([c.accent.status, c.accent.value], ['fixed', 'Colombian']);
    assert.deepEqual(c.speed.range, { minimum: 0.7, maximum: 1.5, step: 0.01 });
  });

  it('a language narrows the voices, whatever code system it is written in', async () => {
    const ja = await combo('deepgram', 'aura-2', 'deepgram', 'nova-3', { language: 'jpn' });
    assert.equal(ja.language.value, 'ja');
    assert.ok(ja.voices.choices.length > 0);
    assert.ok(ja.voices.choices.every((v: { languages: string[] }) => v.languages.every((l) => l.startsWith('ja'))));
    const en = await combo('deepgram', 'aura-2', 'deepgram', 'nova-3', { language: 'en-US' });
    assert.equal(en.language.value, 'en');
    assert.ok(en.voices.choices.length > ja.voices.choices.length);
    assert.ok(!en.accent.choices.includes('Colombian'), 'accents follow the narrowed voices');
  });

  it('normalises ISO 639-3 synthesis languages against ISO 639-1 recognition languages', async () => {
    const c = await combo('elevenlabs', 'eleven_v3', 'openai', 'whisper-1');
    for (const code of ['en', 'zh', 'ms', 'no', 'fa', 'tl']) assert.ok(c.language.choices.includes(code), `${code} is shared`);
    assert.ok(c.language.choices.every((l: string) => l.length === 2), 'choices are ISO 639-1 where a code exists');
    assert.equal(c.emotion.status, 'supported');
    assert.ok(c.emotion.choices.includes('whispers'));
    assert.equal(c.accent.status, 'supported');
    const scribe = await combo('cartesia', 'sonic-3', 'elevenlabs', 'scribe_v1');
    assert.ok(scribe.language.choices.includes('fr'));
    assert.deepEqual(scribe.speechVolume.range, { minimum: 0.5, maximum: 2, step: 0.01 });
    assert.ok(scribe.emotion.choices.includes('sarcastic'));
  });

  it('reports what the catalog does not know as unknown with a reason, never a guess', async () => {
    const google = await combo('google', 'cloud-tts-v1', 'openai', 'whisper-1');
    assert.equal(google.voices.status, 'unknown');
    assert.match(google.voices.reason, /not cataloged/);
    assert.equal(google.language.status, 'unknown');
    assert.equal(google.language.choices, undefined);
    assert.equal(google.emotion.status, 'unknown');
    assert.deepEqual(google.speechVolume.range, { minimum: -96, maximum: 16, step: 0.01 });
    const sonic35 = await combo('cartesia', 'sonic-3.5', 'deepgram', 'nova-2', { language: 'de' });
    assert.equal(sonic35.language.status, 'unknown');
    assert.equal(sonic35.language.value, 'de');
    assert.equal(sonic35.speed.status, 'unsupported');
    assert.match(sonic35.speed.reason, /temporarily disabled/);
  });

  it('reads espeak-ng voices from the installed binary', async () => {
    const c = await combo('espeak-ng', 'espeak-ng-1.51', 'openai', 'whisper-1');
    assert.equal(c.voices.status, 'supported');
    assert.ok(c.voices.choices.length > 50);
    assert.ok(c.voices.choices.some((v: { id: string; name: string }) => v.id === 'gmw/en-US' && v.name === 'English (America)'));
    assert.deepEqual(c.speed.range, { minimum: 80, maximum: 450, step: 1 });
    assert.deepEqual(c.speechVolume.range, { minimum: 0, maximum: 200, step: 1 });
    const german = await combo('espeak-ng', 'espeak-ng-1.51', 'openai', 'whisper-1', { language: 'de' });
    assert.ok(german.voices.choices.every((v: { languages: string[] }) => v.languages.some((l) => l.startsWith('de'))));
    const voice = await combo('espeak-ng', 'espeak-ng-1.51', 'openai', 'whisper-1', { voiceId: 'gmw/en-GB-scotland' });
    assert.deepEqual([voice.language.status, voice.language.value], ['fixed', 'en']);
  });

  it('refuses missing parameters (400), unknown providers and models (404), unknown voices and languages (422)', async () => {
    const base = { ttsProvider: 'openai', ttsModel: 'tts-1', sttProvider: 'deepgram', sttModel: 'nova-3' };
    const q = (over: Record<string, string>, drop?: string) => {
      const query: Record<string, string> = { ...base, ...over };
      if (drop) delete query[drop];
      return api.get(`/v1/persona-capabilities?${new URLSearchParams(query)}`);
    };
    for (const name of Object.keys(base)) assertError(await q({}, name), 400, 'invalid_request');
    assertError(await q({ ttsProvider: '' }), 400, 'invalid_request');
    assertError(await q({ ttsProvider: 'acme' }), 404, 'unknown_provider');
    assertError(await q({ ttsModel: 'tts-9' }), 404, 'unknown_model');
    assertError(await q({ sttProvider: 'acme' }), 404, 'unknown_provider');
    assertError(await q({ sttModel: 'nova-9' }), 404, 'unknown_model');
    assertError(await q({ voiceId: 'nobody' }), 422, 'unknown_voice');
    assertError(await q({ language: 'af' }), 422, 'voice_option_unsupported');
    assertError(await q({ ttsProvider: 'deepgram', ttsModel: 'aura-2', voiceId: 'aura-2-celeste-es', language: 'en' }), 422, 'voice_option_unsupported');
    assertError(await q({ refresh: 'maybe' }), 400, 'invalid_request');
    assertError(await client(server.url).get(`/v1/persona-capabilities?${new URLSearchParams(base)}`), 401, 'not_authenticated');
  });

  it('keeps a project key to its own project', async () => {
    const other = (await api.post('/v1/projects', { name: 'other' })).body.project;
    const scoped = client(server.url, (await api.post('/api/keys', { project_id: admin.project_id })).body.secret);
    const base = 'ttsProvider=openai&ttsModel=tts-1&sttProvider=deepgram&sttModel=nova-3';
    assert.equal((await scoped.get(`/v1/persona-capabilities?${base}`)).status, 200);
    assert.equal((await scoped.get(`/v1/persona-capabilities?${base}&projectId=default`)).status, 200);
    assertError(await scoped.get(`/v1/persona-capabilities?${base}&projectId=${other.id}`), 403, 'not_permitted');
    assertError(await api.get(`/v1/persona-capabilities?${base}&projectId=missing`), 404, 'not_found');
  });

  it('prints the six options as a table from the CLI', async () => {
    const env = { SVC_URL: server.url, SVC_API_KEY: admin.api_key };
    const res = await runCli(['capabilities', '--tts-provider', 'deepgram', '--tts-model', 'aura-2', '--stt-provider', 'deepgram', '--stt-model', 'nova-3', '--voice-id', 'aura-2-thalia-en'], env);
    assert.equal(res.code, 0, res.stderr);
    const lines = res.stdout.trim().split('\n');
    assert.match(lines[0]!, /^OPTION\s+STATUS\s+CHOICES\s+VALUE\s+REASON/);
    assert.deepEqual(lines.slice(1).map((l) => l.split(/\s+/).slice(0, 2)), [
      ['voices', 'supported'], ['language', 'fixed'], ['accent', 'fixed'], ['emotion', 'unsupported'], ['speed', 'supported'], ['speechVolume', 'unsupported'],
    ]);
    assert.match(res.stdout, /0\.7\.\.1\.5 step 0\.01/);
    const json = await runCli(['capabilities', '--tts-provider', 'openai', '--tts-model', 'tts-1', '--stt-provider', 'deepgram', '--stt-model', 'nova-3', '--json'], env);
    assertCapabilitiesShape(JSON.parse(json.stdout));
    const missing = await runCli(['capabilities', '--tts-provider', 'acme', '--tts-model', 'x', '--stt-provider', 'deepgram', '--stt-model', 'nova-3'], env);
    assert.equal(missing.code, 4);
    assert.match(missing.stderr, /unknown_provider/);
  });

  it('saw every status across these real combinations', () => {
    assert.deepEqual([...statuses].sort(), ['fixed', 'supported', 'unknown', 'unsupported']);
  });
});

describe('persona capabilities without espeak-ng installed', () => {
  it('reports espeak-ng voices as unknown with the reason when the binary is absent', async () => {
    const { dataDir, admin } = await bootstrappedDataDir();
    const server = await startServer({ dataDir, env: { SVC_ESPEAK_NG_PATH: '/nonexistent/espeak-ng' } });
    try {
      const res = await client(server.url, admin.api_key).get('/v1/persona-capabilities?ttsProvider=espeak-ng&ttsModel=espeak-ng-1.51&sttProvider=openai&sttModel=whisper-1');
      assert.equal(res.status, 200);
      assertCapabilitiesShape(res.body);
      assert.equal(res.body.voices.status, 'unknown');
      assert.match(res.body.voices.reason, /not installed at "\/nonexistent\/espeak-ng"/);
      assert.equal(res.body.language.status, 'supported', 'the catalog still knows espeak-ng 1.51\'s languages');
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
