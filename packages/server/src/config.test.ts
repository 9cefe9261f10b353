import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig } from './config.js';

describe('loadConfig', () => {
  it('records responses only when SVC_RECORD_RESPONSES names a directory (a test aid, never on by default)', () => {
    assert.equal(loadConfig({}).recordResponsesDir, null);
    assert.equal(loadConfig({ SVC_RECORD_RESPONSES: '' }).recordResponsesDir, null);
    assert.equal(loadConfig({ SVC_RECORD_RESPONSES: 'tmp/rec' }).recordResponsesDir, path.resolve('tmp/rec'));
  });
});
