import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type TestContent, canonicalJson, contentHash } from './content.js';

const base: TestContent = {
  scenario: 'A caller wants a refund.',
  expectedBehaviors: ['offers a refund', 'stays polite'],
  personas: [],
  personaIds: ['prs_a'],
  mockTools: [{ tool: 'refund', answer: { ok: true, amount: 12.5 }, delay_ms: 100 }],
};

describe('test content identity', () => {
  it('serializes object keys in a fixed order at every depth', () => {
    assert.equal(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: null } }), '{"a":{"c":null,"d":[2,{"y":2,"z":1}]},"b":1}');
    assert.equal(canonicalJson({ a: undefined, b: 1 }), '{"b":1}');
  });

  it('treats key order inside mock tools as the same content', () => {
    const reordered: TestContent = { ...base, mockTools: [{ delay_ms: 100, answer: { amount: 12.5, ok: true }, tool: 'refund' }] };
    assert.equal(contentHash(reordered), contentHash(base));
  });

  it('tells apart every change that must mint a version', () => {
    const changed: TestContent[] = [
      { ...base, scenario: 'A caller wants a refund!' },
      { ...base, expectedBehaviors: ['stays polite', 'offers a refund'] },
      { ...base, personas: ['default'] },
      { ...base, personaIds: ['prs_b'] },
      { ...base, mockTools: [{ tool: 'refund', error: 'refused' }] },
      { ...base, mockTools: [{ tool: 'refund', answer: { ok: true, amount: 12.5 } }] },
      { ...base, mockTools: [{ tool: 'refund', answer: null, delay_ms: 100 }] },
    ];
    const hashes = new Set([contentHash(base), ...changed.map(contentHash)]);
    assert.equal(hashes.size, changed.length + 1);
  });
});
