import { createHash, randomBytes } from 'node:crypto';
import type { Principal } from '../http/principal.js';
import type { RelationalStore } from '../storage/sqlite/connection.js';

export interface SessionRepository {
  /** Stores a new session for the user and returns its token (the cookie value), shown once. */
  create(userId: string, ttlSeconds: number): Promise<{ token: string; expiresAt: string }>;
  /** The principal of a live session; null when unknown or expired. */
  findPrincipal(token: string, now: string): Promise<Principal | null>;
}

const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest();

/** Browser sessions in the relational store; only the token's SHA-256 is kept. */
export class SqliteSessionRepository implements SessionRepository {
  constructor(private readonly store: RelationalStore) {}

  async create(userId: string, ttlSeconds: number): Promise<{ token: string; expiresAt: string }> {
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    const expiresAt = new Date(now.getTime() + ttlSeconds * 1000).toISOString();
    this.store.db.prepare('INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)').run(hashToken(token), userId, now.toISOString(), expiresAt);
    return { token, expiresAt };
  }

  async findPrincipal(token: string, now: string): Promise<Principal | null> {
    if (token.length > 200) return null;
    const row = this.store.db
      .prepare('SELECT u.id, u.organization_id, u.role FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ? AND s.expires_at > ?')
      .get(hashToken(token), now) as { id: string; organization_id: string; role: Principal['role'] } | undefined;
    if (!row) return null;
    return { organizationId: row.organization_id, userId: row.id, role: row.role, projectId: null, keyId: null, via: 'session' };
  }
}
