import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../config.js';

export const SECRET_KEY_FILE = 'secret.key';
const VERSION = 'v1';

function decodeKey(raw: string, source: string): Buffer {
  const text = raw.trim();
  const candidates = [/^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : undefined, Buffer.from(text, 'base64url'), Buffer.from(text, 'base64')];
  const key = candidates.find((b) => b?.length === 32);
  if (!key) throw new ConfigError(`${source} must hold 32 bytes as base64 or hex (generate one with: openssl rand -base64 32)`);
  return key;
}

/**
 * Seals secrets at rest with AES-256-GCM. Each sealed value is bound to a
 * context string (e.g. `connection:con_123:credentials`) as associated data,
 * so a sealed value copied onto another row does not open there.
 */
export class Sealer {
  private constructor(private readonly key: Buffer) {}

  /** The key from `SVC_SECRET_KEY`, else `<dataDir>/secret.key` (generated once, mode 0600). */
  static load(env: NodeJS.ProcessEnv, dataDir: string): Sealer {
    if (env.SVC_SECRET_KEY) return new Sealer(decodeKey(env.SVC_SECRET_KEY, 'SVC_SECRET_KEY'));
    const file = path.join(dataDir, SECRET_KEY_FILE);
    if (!existsSync(file)) {
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      try {
        writeFileSync(file, randomBytes(32).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
      } catch (err) {
        if ((err as { code?: string }).code !== 'EEXIST') throw err;
      }
    }
    if ((statSync(file).mode & 0o077) !== 0) throw new ConfigError(`${file} must be readable by its owner only (chmod 600)`);
    return new Sealer(decodeKey(readFileSync(file, 'utf8'), file));
  }

  /** A sealer over an explicit 32-byte key (tools and tests of this module). */
  static fromKey(key: Buffer): Sealer {
    if (key.length !== 32) throw new Error('a sealing key is 32 bytes');
    return new Sealer(key);
  }

  /** `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
  seal(plaintext: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }

  /** Opens a sealed value; throws when it was tampered with, sealed for another context or under another key. */
  open(sealed: string, context: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('not a sealed value');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/** What responses may show of a secret: its last four characters, only when it is long enough to keep the rest hidden. */
export function secretHint(secret: string): string {
  return secret.length >= 12 ? `...${secret.slice(-4)}` : '...';
}
