import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalLanguage, canonicalLanguages, canonicalTag } from './languages.js';

describe('language normalisation', () => {
  it('maps ISO 639-3, 639-2/B, BCP 47 and AssemblyAI codes onto ISO 639-1 where one exists', () => {
    assert.equal(canonicalLanguage('eng'), 'en');
    assert.equal(canonicalLanguage('fas'), 'fa');
    assert.equal(canonicalLanguage('ger'), 'de');
    assert.equal(canonicalLanguage('en-US'), 'en');
    assert.equal(canonicalLanguage('en_au'), 'en');
    assert.equal(canonicalTag('en_uk'), 'en-gb');
    assert.equal(canonicalTag('es-419'), 'es-419');
    assert.equal(canonicalLanguage('jw'), 'jv');
  });

  it('keeps languages without an ISO 639-1 code in ISO 639-3 and applies the documented aliases', () => {
    assert.equal(canonicalLanguage('yue'), 'yue');
    assert.equal(canonicalLanguage('haw'), 'haw');
    assert.equal(canonicalLanguage('cmn'), 'zh');
    assert.equal(canonicalLanguage('nb'), 'no');
    assert.equal(canonicalLanguage('fil'), 'tl');
    assert.equal(canonicalTag('cmn-latn-pinyin'), 'zh-latn-pinyin');
  });

  it('drops Deepgram\'s multi and de-duplicates', () => {
    assert.equal(canonicalLanguage('multi'), null);
    assert.deepEqual(canonicalLanguages(['multi', 'en', 'en-US', 'eng', 'zh-Hans', 'zh']), ['en', 'zh']);
  });
});
