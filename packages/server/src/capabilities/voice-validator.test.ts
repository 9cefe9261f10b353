import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AccountVoices } from './account-voices.js';
import { SpeechCatalog } from './catalog.js';
import { EspeakNg } from './espeak.js';
import { CapabilityLookup } from './lookup.js';
import { CapabilityVoiceValidator } from './voice-validator.js';

const validator = new CapabilityVoiceValidator(new CapabilityLookup(SpeechCatalog.load(), new EspeakNg('espeak-ng'), new AccountVoices(new Map(), async () => null, 0)));
const ORG = 'org_test';
const openai = { ttsProvider: 'openai', ttsModel: 'tts-1', sttProvider: 'deepgram', sttModel: 'nova-3' };

describe('CapabilityVoiceValidator', () => {
  it('accepts settings the combination supports, and settles nothing without a synthesis model', async () => {
    assert.deepEqual(await validator.validate(ORG, { ...openai, voiceId: 'nova', language: 'de', speed: 1.5 }), []);
    assert.deepEqual(await validator.validate(ORG, { ttsProvider: 'deepgram', ttsModel: 'aura-2', voiceId: 'aura-2-celeste-es', accent: 'colombian', language: 'es-CO' }), []);
    assert.deepEqual(await validator.validate(ORG, { emotion: 'angry', speed: 99 }), []);
  });

  it('refuses an unsupported option with the capability\'s reason', async () => {
    const [emotion, ...rest] = await validator.validate(ORG, { ...openai, emotion: 'happy', speechVolume: 1 });
    assert.equal(emotion!.field, 'emotion');
    assert.match(emotion!.reason, /^emotion is unsupported by openai tts-1: `instructions`/);
    assert.equal(rest[0]!.field, 'speechVolume');
    assert.match(rest[0]!.reason, /unsupported/);
  });

  it('refuses values outside a range or the choices, and a fixed option set otherwise', async () => {
    const [speed] = await validator.validate(ORG, { ...openai, speed: 5 });
    assert.deepEqual(speed, { field: 'speed', reason: speed!.reason });
    assert.match(speed!.reason, /outside 0\.25\.\.4/);
    const [emotion] = await validator.validate(ORG, { ttsProvider: 'cartesia', ttsModel: 'sonic-3', emotion: 'giddy' });
    assert.equal(emotion!.field, 'emotion');
    assert.match(emotion!.reason, /not among the choices/);
    const [accent] = await validator.validate(ORG, { ttsProvider: 'deepgram', ttsModel: 'aura-2', voiceId: 'aura-2-celeste-es', accent: 'Peninsular' });
    assert.equal(accent!.field, 'accent');
    assert.match(accent!.reason, /fixed to "Colombian"/);
    const [slow] = await validator.validate(ORG, { ttsProvider: 'espeak-ng', ttsModel: 'espeak-ng-1.51', speed: 40 });
    assert.match(slow!.reason, /outside 80\.\.450/);
  });

  it('refuses unknown providers, models, voices and languages on the field they belong to', async () => {
    assert.equal((await validator.validate(ORG, { ...openai, ttsProvider: 'acme' }))[0]!.field, 'ttsProvider');
    assert.equal((await validator.validate(ORG, { ...openai, sttModel: 'nova-9' }))[0]!.field, 'sttModel');
    assert.equal((await validator.validate(ORG, { ...openai, sttProvider: 'acme' }))[0]!.field, 'sttProvider');
    assert.equal((await validator.validate(ORG, { ...openai, voiceId: 'nobody' }))[0]!.field, 'voiceId');
    const [language] = await validator.validate(ORG, { ...openai, language: 'af' });
    assert.equal(language!.field, 'language');
    assert.match(language!.reason, /not among the languages both openai tts-1 and deepgram nova-3 support/);
  });

  it('accepts what the catalog cannot judge (unknown)', async () => {
    assert.deepEqual(await validator.validate(ORG, { ttsProvider: 'google', ttsModel: 'cloud-tts-v1', emotion: 'cheerful', voiceId: 'en-US-Neural2-A', language: 'de' }), []);
  });
});
