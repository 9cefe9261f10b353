import type Koa from 'koa';
import type { AuthMode } from '@svc/contract';
import { AppError } from './errors.js';
import type { Principal } from './principal.js';

/** Turns a presented credential into a principal; null when unknown, revoked or expired. */
export interface Authenticator {
  fromApiKey(secret: string): Promise<Principal | null>;
  fromSessionToken(token: string): Promise<Principal | null>;
}

export const SESSION_COOKIE = 'svc.session_token';
export const SECURE_SESSION_COOKIE = `__Secure-${SESSION_COOKIE}`;

const notAuthenticated = (message: string) => new AppError('not_authenticated', message);

function readCookie(header: string, name: string): string | undefined {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(value);
      } catch {
        return value;
      }
    }
  }
  return undefined;
}

/**
 * Resolves the caller of an operation. A bearer key is accepted everywhere; the
 * session cookie only where the operation allows it (`/v1` paths). An invalid
 * bearer never falls back to the cookie.
 */
export async function authenticate(ctx: Koa.Context, mode: AuthMode, authenticator: Authenticator): Promise<Principal | undefined> {
  if (mode === 'none') return undefined;
  const header = ctx.get('authorization');
  if (header) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw notAuthenticated('The Authorization header must be "Bearer <API key>".');
    const principal = await authenticator.fromApiKey(match[1]!);
    if (!principal) throw notAuthenticated('The API key is not valid or has been revoked.');
    return principal;
  }
  if (mode === 'key_or_session' && ctx.path.startsWith('/v1/')) {
    const cookies = ctx.get('cookie');
    const token = cookies ? (readCookie(cookies, SECURE_SESSION_COOKIE) ?? readCookie(cookies, SESSION_COOKIE)) : undefined;
    if (token) {
      const principal = await authenticator.fromSessionToken(token);
      if (!principal) throw notAuthenticated('The session is not valid or has expired.');
      return principal;
    }
  }
  throw notAuthenticated(
    mode === 'key' ? 'Send an API key: "Authorization: Bearer svc_sk_...".' : 'Send an API key ("Authorization: Bearer svc_sk_...") or a session cookie.',
  );
}
