import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const KEY_PREFIX = 'svc_sk_';
export const KEY_PATTERN = /^svc_sk_[A-Za-z0-9_-]{43}$/;

/** A new secret: `svc_sk_` + 43 base64url characters of CSPRNG output (32 bytes). */
export function generateSecret(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** SHA-256 of a secret; the only form in which a secret is stored. */
export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** Constant-time comparison of two stored hashes. */
export function sameHash(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** What responses show after creation: the prefix, an ellipsis, the last four characters. */
export function looksLike(secret: string): string {
  return `${KEY_PREFIX}...${secret.slice(-4)}`;
}
