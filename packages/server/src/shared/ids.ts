import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A prefixed random id, e.g. `newId('tst_')` -> `tst_4f9Qx...`: 22 base62 characters (~131 bits). */
export function newId(prefix: string, length = 22): string {
  let out = prefix;
  while (out.length < prefix.length + length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 * 62: rejecting larger bytes keeps every character equally likely.
      if (byte < 248 && out.length < prefix.length + length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

/** Now, as the contract's timestamp format (ISO 8601 UTC with milliseconds). */
export function nowIso(): string {
  return new Date().toISOString();
}
