import type { Role } from '@svc/contract';
import type { RelationalStore } from '../storage/sqlite/connection.js';
import { type Page, isUniqueViolation, keysetPage } from '../storage/sqlite/keyset.js';

export interface UserRecord {
  id: string;
  organizationId: string;
  email: string;
  role: Role;
  createdAt: string;
}

export type SetRoleOutcome = { ok: true; user: UserRecord } | { ok: false; reason: 'not_found' | 'last_admin' };

export interface UserRepository {
  /** Inserts a user; null when the email is taken. */
  create(user: UserRecord): Promise<UserRecord | null>;
  findByEmail(email: string): Promise<UserRecord | null>;
  list(organizationId: string, page: { afterId?: string | undefined; limit: number }): Promise<Page<UserRecord>>;
  /** Changes a role atomically, refusing to demote the organization's last admin. */
  setRole(organizationId: string, userId: string, role: Role): Promise<SetRoleOutcome>;
}

interface UserRow {
  id: string;
  organization_id: string;
  email: string;
  role: Role;
  created_at: string;
}

const toRecord = (r: UserRow): UserRecord => ({ id: r.id, organizationId: r.organization_id, email: r.email, role: r.role, createdAt: r.created_at });

/** Users (organization members) in the relational store. */
export class SqliteUserRepository implements UserRepository {
  constructor(private readonly store: RelationalStore) {}

  async create(u: UserRecord): Promise<UserRecord | null> {
    try {
      this.store.db.prepare('INSERT INTO users (id, organization_id, email, role, created_at) VALUES (?, ?, ?, ?, ?)').run(u.id, u.organizationId, u.email, u.role, u.createdAt);
      return u;
    } catch (err) {
      if (isUniqueViolation(err)) return null;
      throw err;
    }
  }

  async findByEmail(email: string): Promise<UserRecord | null> {
    const row = this.store.db.prepare('SELECT * FROM users WHERE email = ?').get(email.toLowerCase()) as UserRow | undefined;
    return row ? toRecord(row) : null;
  }

  async list(organizationId: string, page: { afterId?: string | undefined; limit: number }): Promise<Page<UserRecord>> {
    return keysetPage<UserRow, UserRecord>(
      this.store.db,
      { table: 'users', where: 'organization_id = ?', params: [organizationId], afterId: page.afterId, limit: page.limit },
      toRecord,
    );
  }

  async setRole(organizationId: string, userId: string, role: Role): Promise<SetRoleOutcome> {
    return this.store.immediate((): SetRoleOutcome => {
      const db = this.store.db;
      const row = db.prepare('SELECT * FROM users WHERE organization_id = ? AND id = ?').get(organizationId, userId) as UserRow | undefined;
      if (!row) return { ok: false, reason: 'not_found' };
      if (row.role === 'admin' && role !== 'admin') {
        const { n } = db.prepare("SELECT count(*) AS n FROM users WHERE organization_id = ? AND role = 'admin'").get(organizationId) as { n: number };
        if (n <= 1) return { ok: false, reason: 'last_admin' };
      }
      db.prepare('UPDATE users SET role = ? WHERE id = ?').run(role, userId);
      return { ok: true, user: toRecord({ ...row, role }) };
    });
  }
}
