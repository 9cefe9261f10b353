import assert from 'node:assert/strict';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import { Sealer, secretHint } from './sealing.js';

describe('Sealer', () => {
  it('round-trips and never leaves the plaintext in the sealed text', () => {
    const sealer = Sealer.fromKey(randomBytes(32));
    const sealed = sealer.seal('pa_live_supersecret', 'setup:prj_1');
    assert.ok(!sealed.includes('supersecret'));
    assert.notEqual(sealer.seal('pa_live_supersecret', 'setup:prj_1'), sealed, 'a fresh IV each time');
    assert.equal(sealer.open(sealed, 'setup:prj_1'), 'pa_live_supersecret');
  });

  it('refuses another context, another key and a flipped byte', () => {
    const key = randomBytes(32);
    const sealed = Sealer.fromKey(key).seal('secret-value', 'a');
    assert.throws(() => Sealer.fromKey(key).open(sealed, 'b'));
    assert.throws(() => Sealer.fromKey(randomBytes(32)).open(sealed, 'a'));
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0] = body[0]! ^ 1;
    assert.throws(() => Sealer.fromKey(key).open([parts[0], parts[1], parts[2], body.toString('base64url')].join('.'), 'a'));
  });

  it('generates a 0600 key file once and reuses it; SVC_SECRET_KEY wins', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-seal-'));
    const sealed = Sealer.load({}, dir).seal('x-secret-value', 'c');
    assert.equal(statSync(path.join(dir, 'secret.key')).mode & 0o777, 0o600);
    assert.equal(Sealer.load({}, dir).open(sealed, 'c'), 'x-secret-value');
    const fromEnv = Sealer.load({ SVC_SECRET_KEY: randomBytes(32).toString('base64') }, dir);
    assert.throws(() => fromEnv.open(sealed, 'c'));
    assert.throws(() => Sealer.load({ SVC_SECRET_KEY: 'too-short' }, dir), /32 bytes/);
  });

  it('hints only the last four characters of long secrets', () => {
    assert.equal(secretHint('pa_live_1234567890abcd'), '...abcd');
    assert.equal(secretHint('short'), '...');
  });
});
