import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AppError } from '../http/errors.js';
import type { Principal } from '../http/principal.js';
import { createLogger } from '../logging/logger.js';
import { bootstrapInstance } from '../organizations/bootstrap.js';
import { relationalServices } from '../runtime.js';
import { RelationalStore } from '../storage/sqlite/connection.js';
import { SqlitePersonaRepository } from './repository.js';
import { PersonaService } from './service.js';
import type { PersonaVoiceSettings, PersonaVoiceValidator } from './voice-validator.js';

/** Refuses any emotion, and a speed above 2, the way the capabilities lookup would. */
class StrictValidator implements PersonaVoiceValidator {
  readonly seen: PersonaVoiceSettings[] = [];
  async validate(_organizationId: string, settings: PersonaVoiceSettings) {
    this.seen.push(settings);
    const refusals = [];
    if (settings.emotion) refusals.push({ field: 'emotion' as const, reason: `emotion is unsupported by ${settings.ttsModel}` });
    if ((settings.speed ?? 1) > 2) refusals.push({ field: 'speed' as const, reason: 'speed ranges from 0.5 to 2' });
    return refusals;
  }
}

describe('PersonaService with a voice validator', () => {
  let dir: string;
  let store: RelationalStore;
  let service: PersonaService;
  let validator: StrictValidator;
  let principal: Principal;
  let personas: SqlitePersonaRepository;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'svc-personas-'));
    store = RelationalStore.open(dir);
    const core = relationalServices(store, createLogger('silent'));
    const boot = (await bootstrapInstance(store, core.keys, 'admin@example.com'))!;
    principal = { organizationId: boot.organization_id, userId: boot.user_id, role: 'admin', projectId: null, keyId: null, via: 'api_key' };
    personas = new SqlitePersonaRepository(store);
    validator = new StrictValidator();
    service = new PersonaService(personas, core.projects, validator);
  });
  after(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const refusal = async (promise: Promise<unknown>) => {
    const err = await promise.then(
      () => assert.fail('expected a refusal'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof AppError);
    assert.equal(err.status, 422);
    assert.equal(err.code, 'voice_option_unsupported');
    return err.details as { refusals: Array<{ field: string; reason: string }> };
  };

  it('refuses with 422 voice_option_unsupported, naming the wire fields, and stores nothing', async () => {
    const details = await refusal(
      service.create(principal, { name: 'Angry Andy', voice: { tts_provider: 'p', tts_model: 'tts-1', emotion: 'angry', speed: 3, speech_volume: 1 }, project: 'default' }),
    );
    assert.deepEqual(details.refusals, [
      { field: 'emotion', reason: 'emotion is unsupported by tts-1' },
      { field: 'speed', reason: 'speed ranges from 0.5 to 2' },
    ]);
    const seen = validator.seen.at(-1)!;
    assert.equal(seen.ttsModel, 'tts-1', 'the validator receives camelCase settings');
    assert.equal(seen.speechVolume, 1);
    const listed = await service.list(principal, { project: 'default' });
    assert.ok(!listed.items.some((p) => p.name === 'Angry Andy'), 'the refused persona was not stored');
    const calls = validator.seen.length;
    await service.create(principal, { name: 'Plain Pat', project: 'default' });
    assert.equal(validator.seen.length, calls, 'a persona choosing no voice setting has nothing to validate');
  });

  it('validates the merged settings of an edit and keeps the persona unchanged on refusal', async () => {
    const calm = await service.create(principal, { name: 'Calm Cleo', voice: { tts_model: 'tts-2', speed: 1.5 }, project: 'default' });
    const details = await refusal(service.update(principal, calm.id, { voice: { emotion: 'cheerful' } }));
    assert.deepEqual(details.refusals.map((r) => r.field), ['emotion']);
    const merged = validator.seen.at(-1)!;
    assert.equal(merged.speed, 1.5, 'members not sent are part of what is validated');
    assert.equal(merged.emotion, 'cheerful');
    assert.deepEqual(await service.get(principal, calm.id), calm);
    const ok = await service.update(principal, calm.id, { voice: { speed: 2 } });
    assert.equal(ok.voice.speed, 2);
  });

  it('starts an edit over when the persona changed between validation and write', async () => {
    const p = await service.create(principal, { name: 'Racy Rita', project: 'default' });
    let raced = false;
    const slow: PersonaVoiceValidator = {
      validate: async () => {
        // A concurrent edit lands while this one is being validated.
        if (!raced) {
          raced = true;
          await personas.update({ organizationId: principal.organizationId, projectId: null }, p.id, 1, { description: 'edited meanwhile' }, new Date().toISOString());
        }
        return [];
      },
    };
    const racing = new PersonaService(personas, relationalServices(store, createLogger('silent')).projects, slow);
    const result = await racing.update(principal, p.id, { voice: { language: 'de-DE' } });
    assert.equal(result.description, 'edited meanwhile', 'the concurrent edit is kept');
    assert.equal(result.voice.language, 'de-DE', 'and this edit applied on top of it');
  });
});
