import type { AgentPlatform, Modality } from '@svc/contract';
import type { LookupScope } from '../http/principal.js';
import type { RelationalStore } from '../storage/sqlite/connection.js';
import { type Page, isUniqueViolation, keysetPage } from '../storage/sqlite/keyset.js';

export interface AgentRecord {
  id: string;
  organizationId: string;
  projectId: string;
  name: string;
  agentPlatform: AgentPlatform;
  platformAgentId: string;
  platformAModality: Modality;
  /** Sealed with the context `agent:<id>:monitoring_api_key`; never leaves the server. */
  monitoringKeySealed: string | null;
  monitoringKeyHint: string;
  createdAt: string;
  updatedAt: string;
  archivedAt: string | null;
}

/** Outcome of a restore: the restored record or why it was refused. */
export type RestoreOutcome<T> = { ok: true; record: T } | { ok: false; reason: 'not_found' | 'not_archived' | 'name_taken' | 'agent_archived' };

export interface AgentRepository {
  /** Inserts an agent; null when an active agent of the project holds the name. */
  insert(agent: AgentRecord): Promise<AgentRecord | null>;
  find(scope: LookupScope, id: string): Promise<AgentRecord | null>;
  /** The project's active agent for a platform's agent id, if any. */
  findActiveByPlatformAgent(project: { organizationId: string; projectId: string }, platform: AgentPlatform, platformAgentId: string): Promise<AgentRecord | null>;
  list(project: { organizationId: string; projectId: string }, includeArchived: boolean, page: { afterId?: string | undefined; limit: number }): Promise<Page<AgentRecord>>;
  /** Sets `archived_at` unless already set; null when invisible. */
  archive(scope: LookupScope, id: string, at: string): Promise<AgentRecord | null>;
  restore(scope: LookupScope, id: string, name: string | undefined, at: string): Promise<RestoreOutcome<AgentRecord>>;
}

interface AgentRow {
  id: string;
  organization_id: string;
  project_id: string;
  name: string;
  agent_platform: AgentPlatform;
  platform_agent_id: string;
  platform_a_modality: Modality;
  monitoring_api_key_sealed: string | null;
  monitoring_api_key_hint: string;
  created_at: string;
  updated_at: string;
  archived_at: string | null;
}

const toRecord = (r: AgentRow): AgentRecord => ({
  id: r.id,
  organizationId: r.organization_id,
  projectId: r.project_id,
  name: r.name,
  agentPlatform: r.agent_platform,
  platformAgentId: r.platform_agent_id,
  platformAModality: r.platform_a_modality,
  monitoringKeySealed: r.monitoring_api_key_sealed,
  monitoringKeyHint: r.monitoring_api_key_hint,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  archivedAt: r.archived_at,
});

/** `organization_id = ? [AND project_id = ?]` for a by-id lookup. */
export function scopeWhere(scope: LookupScope): { sql: string; params: string[] } {
  return scope.projectId
    ? { sql: 'organization_id = ? AND project_id = ?', params: [scope.organizationId, scope.projectId] }
    : { sql: 'organization_id = ?', params: [scope.organizationId] };
}

/** Agents in the relational store. */
export class SqliteAgentRepository implements AgentRepository {
  constructor(private readonly store: RelationalStore) {}

  async insert(a: AgentRecord): Promise<AgentRecord | null> {
    try {
      this.store.db
        .prepare(
          `INSERT INTO agents (id, organization_id, project_id, name, agent_platform, platform_agent_id, platform_a_modality,
             monitoring_api_key_sealed, monitoring_api_key_hint, created_at, updated_at, archived_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(a.id, a.organizationId, a.projectId, a.name, a.agentPlatform, a.platformAgentId, a.platformAModality, a.monitoringKeySealed, a.monitoringKeyHint, a.createdAt, a.updatedAt, a.archivedAt);
      return a;
    } catch (err) {
      if (isUniqueViolation(err)) return null;
      throw err;
    }
  }

  async findActiveByPlatformAgent(project: { organizationId: string; projectId: string }, platform: AgentPlatform, platformAgentId: string): Promise<AgentRecord | null> {
    const row = this.store.db
      .prepare('SELECT * FROM agents WHERE organization_id = ? AND project_id = ? AND agent_platform = ? AND platform_agent_id = ? AND archived_at IS NULL ORDER BY seq LIMIT 1')
      .get(project.organizationId, project.projectId, platform, platformAgentId) as AgentRow | undefined;
    return row ? toRecord(row) : null;
  }

  async find(scope: LookupScope, id: string): Promise<AgentRecord | null> {
    return this.findSync(scope, id);
  }

  async list(project: { organizationId: string; projectId: string }, includeArchived: boolean, page: { afterId?: string | undefined; limit: number }): Promise<Page<AgentRecord>> {
    const where = `organization_id = ? AND project_id = ?${includeArchived ? '' : ' AND archived_at IS NULL'}`;
    return keysetPage<AgentRow, AgentRecord>(this.store.db, { table: 'agents', where, params: [project.organizationId, project.projectId], afterId: page.afterId, limit: page.limit }, toRecord);
  }

  async archive(scope: LookupScope, id: string, at: string): Promise<AgentRecord | null> {
    const where = scopeWhere(scope);
    return this.store.immediate(() => {
      this.store.db.prepare(`UPDATE agents SET archived_at = ?, updated_at = ? WHERE id = ? AND archived_at IS NULL AND ${where.sql}`).run(at, at, id, ...where.params);
      return this.findSync(scope, id);
    });
  }

  async restore(scope: LookupScope, id: string, name: string | undefined, at: string): Promise<RestoreOutcome<AgentRecord>> {
    return this.store.immediate((): RestoreOutcome<AgentRecord> => {
      const found = this.findSync(scope, id);
      if (!found) return { ok: false, reason: 'not_found' };
      if (!found.archivedAt) return { ok: false, reason: 'not_archived' };
      const newName = name ?? found.name;
      try {
        this.store.db.prepare('UPDATE agents SET archived_at = NULL, name = ?, updated_at = ? WHERE id = ?').run(newName, at, id);
      } catch (err) {
        if (isUniqueViolation(err)) return { ok: false, reason: 'name_taken' };
        throw err;
      }
      return { ok: true, record: { ...found, name: newName, archivedAt: null, updatedAt: at } };
    });
  }

  private findSync(scope: LookupScope, id: string): AgentRecord | null {
    const where = scopeWhere(scope);
    const row = this.store.db.prepare(`SELECT * FROM agents WHERE id = ? AND ${where.sql}`).get(id, ...where.params) as AgentRow | undefined;
    return row ? toRecord(row) : null;
  }
}
