import type { AccessVariant, AgentPlatform, ConnectionType, Environment, Modality, Topology } from '@svc/contract';
import type { LookupScope } from '../http/principal.js';
import type { RelationalStore } from '../storage/sqlite/connection.js';
import { type Page, isUniqueViolation, keysetPage } from '../storage/sqlite/keyset.js';
import { type RestoreOutcome, scopeWhere } from './repository.js';

export interface ConnectionRecord {
  id: string;
  organizationId: string;
  projectId: string;
  agentId: string;
  /** The agent's platform (joined from the agent, not stored twice). */
  agentPlatform: AgentPlatform;
  name: string;
  connectionType: ConnectionType;
  accessVariant: AccessVariant;
  modality: Modality;
  productLabel: string;
  topology: Topology;
  environment: Environment;
  config: Record<string, unknown>;
  /** Sealed JSON object with the context `connection:<id>:credentials`; never leaves the server. */
  credentialsSealed: string | null;
  credentialsHint: string;
  createdAt: string;
  updatedAt: string;
  archivedAt: string | null;
}

export type NewConnection = Omit<ConnectionRecord, 'agentPlatform'>;

/** Why a connection could not be inserted. */
export type InsertConnectionOutcome = { ok: true; record: ConnectionRecord } | { ok: false; reason: 'agent_not_found' | 'agent_archived' | 'name_taken' };

export interface ConnectionRepository {
  /** Inserts a connection under an active agent visible in the scope, in one transaction. */
  insert(scope: LookupScope, connection: NewConnection): Promise<InsertConnectionOutcome>;
  find(scope: LookupScope, agentId: string, id: string): Promise<ConnectionRecord | null>;
  /** Finds a connection by its id alone within the scope (for runs, which name only the connection). */
  findById(scope: LookupScope, id: string): Promise<ConnectionRecord | null>;
  list(agent: { organizationId: string; agentId: string }, includeArchived: boolean, page: { afterId?: string | undefined; limit: number }): Promise<Page<ConnectionRecord>>;
  archive(scope: LookupScope, agentId: string, id: string, at: string): Promise<ConnectionRecord | null>;
  restore(scope: LookupScope, agentId: string, id: string, name: string | undefined, at: string): Promise<RestoreOutcome<ConnectionRecord>>;
}

interface ConnectionRow {
  id: string;
  organization_id: string;
  project_id: string;
  agent_id: string;
  agent_platform: AgentPlatform;
  agent_archived_at: string | null;
  name: string;
  connection_type: ConnectionType;
  access_variant: AccessVariant;
  modality: Modality;
  product_label: string;
  topology: Topology;
  environment: Environment;
  config: string;
  credentials_sealed: string | null;
  credentials_hint: string;
  created_at: string;
  updated_at: string;
  archived_at: string | null;
}

const toRecord = (r: ConnectionRow): ConnectionRecord => ({
  id: r.id,
  organizationId: r.organization_id,
  projectId: r.project_id,
  agentId: r.agent_id,
  agentPlatform: r.agent_platform,
  name: r.name,
  connectionType: r.connection_type,
  accessVariant: r.access_variant,
  modality: r.modality,
  productLabel: r.product_label,
  topology: r.topology,
  environment: r.environment,
  config: JSON.parse(r.config) as Record<string, unknown>,
  credentialsSealed: r.credentials_sealed,
  credentialsHint: r.credentials_hint,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  archivedAt: r.archived_at,
});

/** Connections with their agent's platform and archive state; `c.` columns qualify the scope. */
const SELECT = `SELECT c.*, a.agent_platform AS agent_platform, a.archived_at AS agent_archived_at
  FROM agent_connections c JOIN agents a ON a.id = c.agent_id`;

function qualified(scope: LookupScope): { sql: string; params: string[] } {
  const where = scopeWhere(scope);
  return { sql: where.sql.replace(/(organization_id|project_id)/g, 'c.$1'), params: where.params };
}

/** Agent connections in the relational store. */
export class SqliteConnectionRepository implements ConnectionRepository {
  constructor(private readonly store: RelationalStore) {}

  async insert(scope: LookupScope, c: NewConnection): Promise<InsertConnectionOutcome> {
    const where = scopeWhere(scope);
    return this.store.immediate((): InsertConnectionOutcome => {
      const db = this.store.db;
      const agent = db.prepare(`SELECT archived_at FROM agents WHERE id = ? AND ${where.sql}`).get(c.agentId, ...where.params) as { archived_at: string | null } | undefined;
      if (!agent) return { ok: false, reason: 'agent_not_found' };
      if (agent.archived_at) return { ok: false, reason: 'agent_archived' };
      try {
        db.prepare(
          `INSERT INTO agent_connections (id, organization_id, project_id, agent_id, name, connection_type, access_variant, modality, product_label,
             topology, environment, config, credentials_sealed, credentials_hint, created_at, updated_at, archived_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(c.id, c.organizationId, c.projectId, c.agentId, c.name, c.connectionType, c.accessVariant, c.modality, c.productLabel, c.topology, c.environment, JSON.stringify(c.config), c.credentialsSealed, c.credentialsHint, c.createdAt, c.updatedAt, c.archivedAt);
      } catch (err) {
        if (isUniqueViolation(err)) return { ok: false, reason: 'name_taken' };
        throw err;
      }
      return { ok: true, record: this.findSync(scope, c.agentId, c.id)! };
    });
  }

  async find(scope: LookupScope, agentId: string, id: string): Promise<ConnectionRecord | null> {
    return this.findSync(scope, agentId, id);
  }

  async findById(scope: LookupScope, id: string): Promise<ConnectionRecord | null> {
    const where = qualified(scope);
    const row = this.store.db.prepare(`${SELECT} WHERE c.id = ? AND ${where.sql}`).get(id, ...where.params) as ConnectionRow | undefined;
    return row ? toRecord(row) : null;
  }

  async list(agent: { organizationId: string; agentId: string }, includeArchived: boolean, page: { afterId?: string | undefined; limit: number }): Promise<Page<ConnectionRecord>> {
    const where = `organization_id = ? AND agent_id = ?${includeArchived ? '' : ' AND archived_at IS NULL'}`;
    const platform = this.store.db.prepare('SELECT agent_platform FROM agents WHERE id = ?').get(agent.agentId) as { agent_platform: AgentPlatform } | undefined;
    return keysetPage<ConnectionRow, ConnectionRecord>(
      this.store.db,
      { table: 'agent_connections', where, params: [agent.organizationId, agent.agentId], afterId: page.afterId, limit: page.limit },
      (row) => toRecord({ ...row, agent_platform: platform?.agent_platform ?? 'custom' }),
    );
  }

  async archive(scope: LookupScope, agentId: string, id: string, at: string): Promise<ConnectionRecord | null> {
    const where = scopeWhere(scope);
    return this.store.immediate(() => {
      this.store.db
        .prepare(`UPDATE agent_connections SET archived_at = ?, updated_at = ? WHERE id = ? AND agent_id = ? AND archived_at IS NULL AND ${where.sql}`)
        .run(at, at, id, agentId, ...where.params);
      return this.findSync(scope, agentId, id);
    });
  }

  async restore(scope: LookupScope, agentId: string, id: string, name: string | undefined, at: string): Promise<RestoreOutcome<ConnectionRecord>> {
    return this.store.immediate((): RestoreOutcome<ConnectionRecord> => {
      const row = this.findRow(scope, agentId, id);
      if (!row) return { ok: false, reason: 'not_found' };
      if (!row.archived_at) return { ok: false, reason: 'not_archived' };
      if (row.agent_archived_at) return { ok: false, reason: 'agent_archived' };
      const newName = name ?? row.name;
      try {
        this.store.db.prepare('UPDATE agent_connections SET archived_at = NULL, name = ?, updated_at = ? WHERE id = ?').run(newName, at, id);
      } catch (err) {
        if (isUniqueViolation(err)) return { ok: false, reason: 'name_taken' };
        throw err;
      }
      return { ok: true, record: { ...toRecord(row), name: newName, archivedAt: null, updatedAt: at } };
    });
  }

  private findRow(scope: LookupScope, agentId: string, id: string): ConnectionRow | undefined {
    const where = qualified(scope);
    return this.store.db.prepare(`${SELECT} WHERE c.id = ? AND c.agent_id = ? AND ${where.sql}`).get(id, agentId, ...where.params) as ConnectionRow | undefined;
  }

  private findSync(scope: LookupScope, agentId: string, id: string): ConnectionRecord | null {
    const row = this.findRow(scope, agentId, id);
    return row ? toRecord(row) : null;
  }
}
