import type { Role } from '@svc/contract';
import type { RelationalStore } from '../storage/sqlite/connection.js';

export interface KeyRecord {
  id: string;
  organizationId: string;
  projectId: string | null;
  name: string | null;
  looksLike: string;
  createdByUserId: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** A key found by its hash, with what authentication needs. */
export interface KeyCredential extends KeyRecord {
  secretHash: Buffer;
  creatorRole: Role;
}

/** Which keys a caller may see. */
export interface KeyVisibility {
  organizationId: string;
  projectId?: string | null;
  createdByUserId?: string;
}

export interface KeyRepository {
  insert(record: KeyRecord, secretHash: Buffer): Promise<void>;
  findByHash(secretHash: Buffer): Promise<KeyCredential | null>;
  list(visibility: KeyVisibility): Promise<KeyRecord[]>;
  /** Sets `revoked_at` if the key is visible and still active; returns the final record, or null when invisible. */
  revoke(visibility: KeyVisibility, id: string, at: string): Promise<KeyRecord | null>;
  recordUsage(usages: ReadonlyArray<{ id: string; at: string }>): Promise<void>;
}

interface KeyRow {
  id: string;
  organization_id: string;
  project_id: string | null;
  name: string | null;
  looks_like: string;
  created_by_user_id: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

const toRecord = (r: KeyRow): KeyRecord => ({
  id: r.id,
  organizationId: r.organization_id,
  projectId: r.project_id,
  name: r.name,
  looksLike: r.looks_like,
  createdByUserId: r.created_by_user_id,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
});

function visibilityWhere(v: KeyVisibility): { sql: string; params: unknown[] } {
  const parts = ['organization_id = ?'];
  const params: unknown[] = [v.organizationId];
  if (v.projectId) {
    parts.push('project_id = ?');
    params.push(v.projectId);
  }
  if (v.createdByUserId) {
    parts.push('created_by_user_id = ?');
    params.push(v.createdByUserId);
  }
  return { sql: parts.join(' AND '), params };
}

/** API keys in the relational store. */
export class SqliteKeyRepository implements KeyRepository {
  // Every API request authenticates: prepare its lookup once, not per request.
  private findByHashStatement: ReturnType<RelationalStore['db']['prepare']> | undefined;

  constructor(private readonly store: RelationalStore) {}

  async insert(k: KeyRecord, secretHash: Buffer): Promise<void> {
    this.store.db
      .prepare(
        `INSERT INTO api_keys (id, organization_id, project_id, name, secret_hash, looks_like, created_by_user_id, created_at, last_used_at, revoked_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(k.id, k.organizationId, k.projectId, k.name, secretHash, k.looksLike, k.createdByUserId, k.createdAt, k.lastUsedAt, k.revokedAt);
  }

  async findByHash(secretHash: Buffer): Promise<KeyCredential | null> {
    this.findByHashStatement ??= this.store.db.prepare(
      `SELECT k.*, u.role AS creator_role FROM api_keys k JOIN users u ON u.id = k.created_by_user_id WHERE k.secret_hash = ?`,
    );
    const row = this.findByHashStatement.get(secretHash) as (KeyRow & { secret_hash: Buffer; creator_role: Role }) | undefined;
    return row ? { ...toRecord(row), secretHash: row.secret_hash, creatorRole: row.creator_role } : null;
  }

  async list(v: KeyVisibility): Promise<KeyRecord[]> {
    const where = visibilityWhere(v);
    const rows = this.store.db.prepare(`SELECT * FROM api_keys WHERE ${where.sql} ORDER BY seq DESC`).all(...where.params) as KeyRow[];
    return rows.map(toRecord);
  }

  async revoke(v: KeyVisibility, id: string, at: string): Promise<KeyRecord | null> {
    const where = visibilityWhere(v);
    return this.store.immediate(() => {
      const db = this.store.db;
      db.prepare(`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ? AND ${where.sql}`).run(at, id, ...where.params);
      const row = db.prepare(`SELECT * FROM api_keys WHERE id = ? AND ${where.sql}`).get(id, ...where.params) as KeyRow | undefined;
      return row ? toRecord(row) : null;
    });
  }

  async recordUsage(usages: ReadonlyArray<{ id: string; at: string }>): Promise<void> {
    if (usages.length === 0) return;
    const update = this.store.db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)');
    this.store.immediate(() => {
      for (const u of usages) update.run(u.at, u.id, u.at);
    });
  }
}
