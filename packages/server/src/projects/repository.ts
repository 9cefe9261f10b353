import type { RelationalStore } from '../storage/sqlite/connection.js';
import { type Page, isUniqueViolation, keysetPage } from '../storage/sqlite/keyset.js';

export interface ProjectRecord {
  id: string;
  organizationId: string;
  name: string;
  createdAt: string;
}

export interface ProjectRepository {
  /** Inserts a project; returns null when the name is taken in the organization. */
  create(project: ProjectRecord): Promise<ProjectRecord | null>;
  /** Finds a project of the organization by id first, then by name. */
  findByRef(organizationId: string, ref: string): Promise<ProjectRecord | null>;
  list(organizationId: string, page: { afterId?: string | undefined; limit: number }): Promise<Page<ProjectRecord>>;
}

interface ProjectRow {
  id: string;
  organization_id: string;
  name: string;
  created_at: string;
}

const toRecord = (r: ProjectRow): ProjectRecord => ({ id: r.id, organizationId: r.organization_id, name: r.name, createdAt: r.created_at });

/** Projects in the relational store. */
export class SqliteProjectRepository implements ProjectRepository {
  constructor(private readonly store: RelationalStore) {}

  async create(p: ProjectRecord): Promise<ProjectRecord | null> {
    try {
      this.store.db.prepare('INSERT INTO projects (id, organization_id, name, created_at) VALUES (?, ?, ?, ?)').run(p.id, p.organizationId, p.name, p.createdAt);
      return p;
    } catch (err) {
      if (isUniqueViolation(err)) return null;
      throw err;
    }
  }

  async findByRef(organizationId: string, ref: string): Promise<ProjectRecord | null> {
    const db = this.store.db;
    const row = (db.prepare('SELECT * FROM projects WHERE organization_id = ? AND id = ?').get(organizationId, ref) ??
      db.prepare('SELECT * FROM projects WHERE organization_id = ? AND name = ?').get(organizationId, ref)) as ProjectRow | undefined;
    return row ? toRecord(row) : null;
  }

  async list(organizationId: string, page: { afterId?: string | undefined; limit: number }): Promise<Page<ProjectRecord>> {
    return keysetPage<ProjectRow, ProjectRecord>(
      this.store.db,
      { table: 'projects', where: 'organization_id = ?', params: [organizationId], afterId: page.afterId, limit: page.limit },
      toRecord,
    );
  }
}
