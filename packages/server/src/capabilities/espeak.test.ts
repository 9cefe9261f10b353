import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EspeakNg, parseEspeakVoices } from './espeak.js';

const SAMPLE = `Pty Language       Age/Gender VoiceName          File                 Other Languages
 5  af              --/M      Afrikaans          gmw/af
 2  en-gb           --/M      English_(Great_Britain) gmw/en               (en 2)
 5  cmn             --/F      Chinese_(Mandarin) sit/cmn              (zh-cmn 5)(zh 5)
`;

describe('espeak-ng', () => {
  it('parses the --voices table into voice objects keyed by voice file', () => {
    assert.deepEqual(parseEspeakVoices(SAMPLE), [
      { id: 'gmw/af', name: 'Afrikaans', source: 'standard', presentation: 'male', languages: ['af'], accents: [] },
      { id: 'gmw/en', name: 'English (Great Britain)', source: 'standard', presentation: 'male', languages: ['en-gb'], accents: [] },
      { id: 'sit/cmn', name: 'Chinese (Mandarin)', source: 'standard', presentation: 'female', languages: ['zh'], accents: [] },
    ]);
  });

  it('explains an absent binary instead of failing', async () => {
    const result = await new EspeakNg('/nonexistent/espeak-ng').voices();
    assert.equal(result.ok, false);
    assert.match(!result.ok ? result.reason : '', /not installed at "\/nonexistent\/espeak-ng"/);
  });

  it('reads the real binary\'s voices and speaks a WAV file', async () => {
    const espeak = new EspeakNg('espeak-ng');
    const result = await espeak.voices();
    assert.ok(result.ok);
    assert.ok(result.voices.length > 50);
    assert.ok(result.voices.some((v) => v.id === 'gmw/en-US' && v.languages[0] === 'en-us'));
    const wav = await espeak.synthesize('Hello from svc.', { voice: 'gmw/en-US', speed: 175, volume: 100 });
    assert.equal(wav.subarray(0, 4).toString('ascii'), 'RIFF');
    assert.equal(wav.subarray(8, 12).toString('ascii'), 'WAVE');
    assert.ok(wav.length > 10_000, 'a second of speech is more than a header');
  });
});
