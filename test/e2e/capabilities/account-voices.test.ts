import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Svc } from '@svc/sdk';
import { assertCapabilitiesShape } from '../../helpers/capabilities-schema.js';
import { assertError, client } from '../../helpers/http.js';
import { type Bootstrap, type TestServer, hostCommand, startBootstrappedServer } from '../../helpers/server.js';
import { type VoiceListEmulator, startVoiceListEmulator } from '../../helpers/voice-list-emulator.js';

const GOOD_KEY = 'xi_account_key_5tG8pLq2Vb7N';
const OTHER_KEY = 'xi_account_key_second_R4mW';
const V2_QUERY = 'ttsProvider=elevenlabs&ttsModel=eleven_multilingual_v2&sttProvider=deepgram&sttModel=nova-3';

describe('account voices from a stored provider key', () => {
  let emulator: VoiceListEmulator;
  let server: TestServer;
  let admin: Bootstrap;
  let cleanup: () => Promise<void>;
  let api: ReturnType<typeof client>;
  const texts: string[] = [];

  async function lookup(query: string) {
    const res = await api.get(`/v1/persona-capabilities?${query}`);
    texts.push(res.text);
    if (res.status === 200) assertCapabilitiesShape(res.body);
    return res;
  }

  before(async () => {
    emulator = await startVoiceListEmulator([GOOD_KEY, OTHER_KEY]);
    ({ server, admin, cleanup } = await startBootstrappedServer({ env: { SVC_ELEVENLABS_URL: emulator.url } }));
    api = client(server.url, admin.api_key);
  });
  after(async () => {
    await cleanup();
    await emulator.close();
  });

  it('lists only the catalog\'s voices while no key is stored', async () => {
    const res = await lookup(V2_QUERY);
    assert.equal(res.status, 200);
    assert.ok(res.body.voices.choices.every((v: { source: string }) => v.source === 'standard'));
    assert.equal(emulator.calls, 0, 'no key, no provider call');
  });

  it('checks a key with the provider before storing it, and stores nothing when refused', async () => {
    const refused = await api.put('/api/provider-keys/elevenlabs', { api_key: 'xi_wrong_key_000000' });
    assertError(refused, 422, 'invalid_provider_key');
    assert.equal(emulator.calls, 1);
    assert.deepEqual((await api.get('/api/provider-keys')).body, { provider_keys: [] });
    assertError(await api.put('/api/provider-keys/acme', { api_key: GOOD_KEY }), 400, 'invalid_request');
    assertError(await api.put('/api/provider-keys/elevenlabs', { api_key: '' }), 422, 'validation_failed');
    // A key no HTTP header can carry is invalid input, never sent and never a 503 (it was: the request could not be built).
    for (const api_key of ['xi_ключ', 'xi key', 'xi_\u0000', '\ud800']) {
      assertError(await api.put('/api/provider-keys/elevenlabs', { api_key }), 422, 'validation_failed');
    }
    assert.equal(emulator.calls, 1, 'none of them reached the provider');
  });

  it('stores a key sealed, shows only its hint, and admits only org-wide admins', async () => {
    const stored = await api.put('/api/provider-keys/elevenlabs', { api_key: GOOD_KEY });
    texts.push(stored.text);
    assert.equal(stored.status, 200);
    assert.deepEqual(Object.keys(stored.body).sort(), ['api_key_hint', 'created_at', 'provider', 'updated_at', 'updated_by_user_id']);
    assert.equal(stored.body.api_key_hint, '...Vb7N');
    const listed = await api.get('/api/provider-keys');
    texts.push(listed.text);
    assert.equal(listed.body.provider_keys.length, 1);
    assert.equal(listed.body.provider_keys[0].api_key_hint, '...Vb7N');

    await hostCommand(server.dataDir, ['user', 'create', '--email', 'member@example.com', '--role', 'member']);
    const member = client(server.url, (await hostCommand<{ secret: string }>(server.dataDir, ['keys', 'create', '--email', 'member@example.com'])).secret);
    assertError(await member.get('/api/provider-keys'), 403, 'not_permitted');
    assertError(await member.put('/api/provider-keys/elevenlabs', { api_key: OTHER_KEY }), 403, 'not_permitted');
    const projectKey = client(server.url, (await api.post('/api/keys', { project_id: admin.project_id })).body.secret);
    assertError(await projectKey.get('/api/provider-keys'), 403, 'not_permitted');
    assertError(await projectKey.delete('/api/provider-keys/elevenlabs'), 403, 'not_permitted');
  });

  it('adds the account\'s voices to the lookup from the cache, and re-reads them with refresh=true', async () => {
    const callsAfterPut = emulator.calls;
    const res = await lookup(V2_QUERY);
    assert.equal(res.status, 200);
    assert.equal(emulator.calls, callsAfterPut, 'the check at PUT filled the cache');
    const account = res.body.voices.choices.filter((v: { source: string }) => v.source === 'account');
    assert.deepEqual(account.map((v: { id: string }) => v.id).sort(), ['acct-clone-001', 'acct-design-002']);
    const clone = account.find((v: { id: string }) => v.id === 'acct-clone-001');
    assert.deepEqual(clone, { id: 'acct-clone-001', name: 'Support Clone', source: 'account', presentation: 'female', languages: ['en-ie', 'de-de'], accents: ['irish'] });
    const premade = res.body.voices.choices.find((v: { id: string }) => v.id === 'premade-new-003');
    assert.equal(premade.source, 'standard', 'premade voices of the account are the provider\'s standard ones');

    await lookup(V2_QUERY);
    assert.equal(emulator.calls, callsAfterPut, 'cached per organization');
    const refreshed = await lookup(`${V2_QUERY}&refresh=true`);
    assert.equal(refreshed.status, 200);
    assert.equal(emulator.calls, callsAfterPut + 1, 'refresh re-reads the provider');
    assert.equal(emulator.keysSeen.at(-1), GOOD_KEY, 'the stored key is opened and sent to the provider');

    const v3 = await lookup('ttsProvider=elevenlabs&ttsModel=eleven_v3&sttProvider=deepgram&sttModel=nova-3&voiceId=acct-clone-001');
    assert.equal(v3.status, 200);
    assert.deepEqual(v3.body.voices.value.languages, ['fr-fr'], 'languages verified for this model only');
    assert.deepEqual([v3.body.language.status, v3.body.language.value], ['fixed', 'fr']);
    const narrowed = await lookup(`${V2_QUERY}&language=de`);
    assert.ok(narrowed.body.voices.choices.some((v: { id: string }) => v.id === 'acct-clone-001'));
    assert.ok(!narrowed.body.voices.choices.some((v: { id: string }) => v.id === 'acct-design-002'), 'a Spanish voice leaves a German lookup');
    assert.equal(emulator.calls, callsAfterPut + 1);
  });

  it('passes the provider\'s 429 through with its Retry-After, and maps its failures to 503', async () => {
    emulator.fail({ status: 429, retryAfter: '7' });
    const limited = await lookup(`${V2_QUERY}&refresh=true`);
    assertError(limited, 429, 'too_many_requests');
    assert.equal(limited.headers.get('retry-after'), '7');
    assert.equal(limited.body.details.provider, 'elevenlabs');

    emulator.fail({ status: 502 });
    assertError(await lookup(`${V2_QUERY}&refresh=true`), 503, 'provider_unavailable');
    emulator.fail({ status: 503, retryAfter: '3' });
    const unavailable = await lookup(`${V2_QUERY}&refresh=true`);
    assertError(unavailable, 503, 'provider_unavailable');
    assert.equal(unavailable.headers.get('retry-after'), '3');

    const recovered = await lookup(V2_QUERY);
    assert.equal(recovered.status, 200, 'a failed read is not cached; the next lookup reads again');
    assert.ok(recovered.body.voices.choices.some((v: { source: string }) => v.source === 'account'));
  });

  it('drops the account\'s voices when the key is removed', async () => {
    const svc = new Svc({ apiKey: admin.api_key, baseUrl: server.url, maxRetries: 0 });
    await svc.providerKeys.remove('elevenlabs');
    assertError(await api.delete('/api/provider-keys/elevenlabs'), 404, 'not_found');
    const calls = emulator.calls;
    const caps = await svc.personaCapabilities.get({ ttsProvider: 'elevenlabs', ttsModel: 'eleven_multilingual_v2', sttProvider: 'deepgram', sttModel: 'nova-3' });
    assert.ok(caps.voices.choices!.every((v) => v.source === 'standard'));
    assert.equal(emulator.calls, calls);
    assert.deepEqual(await svc.providerKeys.list(), []);
  });

  it('never returns or logs the provider key, and keeps only ciphertext at rest', async () => {
    await api.put('/api/provider-keys/elevenlabs', { api_key: OTHER_KEY });
    for (const text of texts) for (const key of [GOOD_KEY, OTHER_KEY]) assert.ok(!text.includes(key));
    const log = server.output.join('\n');
    for (const key of [GOOD_KEY, OTHER_KEY]) assert.ok(!log.includes(key), 'no log line carries the key');
    for (const file of ['svc.sqlite', 'svc.sqlite-wal']) {
      const full = path.join(server.dataDir, file);
      if (existsSync(full)) for (const key of [GOOD_KEY, OTHER_KEY]) assert.ok(!readFileSync(full).toString('latin1').includes(key), `${file} holds no plaintext key`);
    }
  });
});
