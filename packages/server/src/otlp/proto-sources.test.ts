import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

describe('vendored .proto files', () => {
  it('are byte for byte the official files recorded in proto/SOURCES.json', () => {
    const script = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../scripts/otlp-protos.mjs');
    const out = execFileSync(process.execPath, [script], { encoding: 'utf8' });
    assert.match(out, /match @elastic\/mockotlpserver@0\.10\.0/);
  });
});
