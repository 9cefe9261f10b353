import type { MonitoringPlatform } from '@svc/contract';
import { newId } from '../shared/ids.js';
import type { RelationalStore } from '../storage/sqlite/connection.js';
import type { AgentRecord, HealthNote, SetupRecord, SetupView } from './model.js';
import { type AgentRow, type FailureRow, type SetupRow, toAgent, toFailure, toSetup } from './rows.js';

/** What a platform_a save writes once the platform has confirmed the key and the agents. */
export interface PlatformASave {
  organizationId: string;
  projectId: string;
  sealedApiKey: string;
  apiKeyHint: string;
  agents: Array<{ id: string; name: string }>;
  health: HealthNote;
  now: string;
}

/** Per platform agent: whether a setup of the project selects it, and when its last conversation arrived. */
export interface PlatformAgentStatusRow {
  platformAgentId: string;
  apiKeyHint: string | null;
  healthState: string;
  lastReceivedAt: string | null;
}

/** Setups, their selected agents and the span receipts, in the relational store. */
export class SqliteMonitoringRepository {
  constructor(private readonly store: RelationalStore) {}

  /** The project's setups (platform_a first) with agents in selection order and their open failures. */
  async listViews(projectId: string): Promise<SetupView[]> {
    const db = this.store.db;
    const setups = db.prepare("SELECT * FROM monitoring_setups WHERE project_id = ? ORDER BY platform = 'platform_b_agents', seq").all(projectId) as SetupRow[];
    return setups.map((row) => this.view(row));
  }

  async findView(projectId: string, platform: MonitoringPlatform): Promise<SetupView | null> {
    const row = this.store.db.prepare('SELECT * FROM monitoring_setups WHERE project_id = ? AND platform = ?').get(projectId, platform) as SetupRow | undefined;
    return row ? this.view(row) : null;
  }

  private view(row: SetupRow): SetupView {
    const db = this.store.db;
    const agents = db.prepare('SELECT * FROM monitoring_agents WHERE setup_id = ? ORDER BY position').all(row.id) as AgentRow[];
    const failures = db
      .prepare("SELECT * FROM monitoring_failures WHERE setup_id = ? AND status = 'open' ORDER BY first_failed_at, seq")
      .all(row.id) as FailureRow[];
    return {
      setup: toSetup(row),
      agents: agents.map((a) => ({ ...toAgent(a), failures: failures.filter((f) => f.platform_agent_id === a.platform_agent_id).map(toFailure) })),
    };
  }

  /** A setup by id (the importer's fresh read before each run). */
  async findSetupById(setupId: string): Promise<SetupRecord | null> {
    const row = this.store.db.prepare('SELECT * FROM monitoring_setups WHERE id = ?').get(setupId) as SetupRow | undefined;
    return row ? toSetup(row) : null;
  }

  async agents(setupId: string): Promise<AgentRecord[]> {
    return (this.store.db.prepare('SELECT * FROM monitoring_agents WHERE setup_id = ? ORDER BY position').all(setupId) as AgentRow[]).map(toAgent);
  }

  /**
   * Creates or replaces the project's platform_a setup in one transaction:
   * key, hint and health are replaced; agents that stay keep their progress,
   * dropped ones go with their import state, new ones start a backfill.
   */
  async savePlatformA(input: PlatformASave): Promise<SetupView> {
    const db = this.store.db;
    const id = this.store.immediate(() => {
      db.prepare(
        `INSERT INTO monitoring_setups (id, organization_id, project_id, platform, sealed_api_key, api_key_hint, health_state, health_message, health_checked_at, not_before, created_at, updated_at)
         VALUES (?, ?, ?, 'platform_a', ?, ?, ?, ?, ?, NULL, ?, ?)
         ON CONFLICT (project_id, platform) DO UPDATE SET sealed_api_key = excluded.sealed_api_key, api_key_hint = excluded.api_key_hint,
           health_state = excluded.health_state, health_message = excluded.health_message, health_checked_at = excluded.health_checked_at,
           not_before = NULL, updated_at = excluded.updated_at`,
      ).run(newId('mon_'), input.organizationId, input.projectId, input.sealedApiKey, input.apiKeyHint, input.health.state, input.health.message, input.health.at, input.now, input.now);
      const setupId = (db.prepare("SELECT id FROM monitoring_setups WHERE project_id = ? AND platform = 'platform_a'").get(input.projectId) as { id: string }).id;
      const keep = input.agents.map((a) => a.id);
      db.prepare(`DELETE FROM monitoring_agents WHERE setup_id = ? AND platform_agent_id NOT IN (SELECT value FROM json_each(?))`).run(setupId, JSON.stringify(keep));
      const upsert = db.prepare(
        `INSERT INTO monitoring_agents (setup_id, platform_agent_id, name, position, created_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (setup_id, platform_agent_id) DO UPDATE SET name = excluded.name, position = excluded.position`,
      );
      input.agents.forEach((a, position) => upsert.run(setupId, a.id, a.name, position, input.now));
      return setupId;
    });
    const row = db.prepare('SELECT * FROM monitoring_setups WHERE id = ?').get(id) as SetupRow;
    return this.view(row);
  }

  /** Creates the platform_b record unless it exists; either way returns it. */
  async enablePlatformB(organizationId: string, projectId: string, now: string): Promise<SetupView> {
    const db = this.store.db;
    db.prepare(
      `INSERT INTO monitoring_setups (id, organization_id, project_id, platform, health_state, health_message, created_at, updated_at)
       VALUES (?, ?, ?, 'platform_b_agents', 'healthy', ?, ?, ?) ON CONFLICT (project_id, platform) DO NOTHING`,
    ).run(newId('mon_'), organizationId, projectId, 'Spans from platform_b workers are accepted at POST /v1/traces with a project-scoped key.', now, now);
    return (await this.findView(projectId, 'platform_b_agents'))!;
  }

  /** Removes a setup with its agents, import state and failures; returns its id, or null when there was none. */
  async deleteSetup(projectId: string, platform: MonitoringPlatform): Promise<string | null> {
    const row = this.store.db.prepare('DELETE FROM monitoring_setups WHERE project_id = ? AND platform = ? RETURNING id').get(projectId, platform) as { id: string } | undefined;
    return row?.id ?? null;
  }

  /** Every platform_a setup, for the scheduler. */
  async pollableSetups(): Promise<Array<{ id: string; notBefore: string | null }>> {
    return (this.store.db.prepare("SELECT id, not_before FROM monitoring_setups WHERE platform = 'platform_a' ORDER BY seq").all() as Array<{ id: string; not_before: string | null }>).map(
      (r) => ({ id: r.id, notBefore: r.not_before }),
    );
  }

  /** The platform_a selection of a project, restricted to some platform agent ids. */
  async platformAgentStatuses(projectId: string, platformAgentIds: readonly string[]): Promise<PlatformAgentStatusRow[]> {
    const rows = this.store.db
      .prepare(
        `SELECT a.platform_agent_id, s.api_key_hint, s.health_state, a.last_received_at FROM monitoring_agents a
         JOIN monitoring_setups s ON s.id = a.setup_id
         WHERE s.project_id = ? AND s.platform = 'platform_a' AND a.platform_agent_id IN (SELECT value FROM json_each(?))`,
      )
      .all(projectId, JSON.stringify(platformAgentIds)) as Array<{ platform_agent_id: string; api_key_hint: string | null; health_state: string; last_received_at: string | null }>;
    return rows.map((r) => ({ platformAgentId: r.platform_agent_id, apiKeyHint: r.api_key_hint, healthState: r.health_state, lastReceivedAt: r.last_received_at }));
  }

  /** Writes coalesced span arrival times; an older time never replaces a newer one. */
  async recordSpanReceipts(batch: ReadonlyArray<{ projectId: string; at: string }>): Promise<void> {
    const upsert = this.store.db.prepare(
      `INSERT INTO monitoring_span_receipts (project_id, last_received_at) VALUES (?, ?)
       ON CONFLICT (project_id) DO UPDATE SET last_received_at = max(last_received_at, excluded.last_received_at)`,
    );
    this.store.immediate(() => {
      for (const r of batch) {
        try {
          upsert.run(r.projectId, r.at);
        } catch (err) {
          if ((err as { code?: string }).code !== 'SQLITE_CONSTRAINT_FOREIGNKEY') throw err;
        }
      }
    });
  }

  async spanReceipt(projectId: string): Promise<string | null> {
    const row = this.store.db.prepare('SELECT last_received_at FROM monitoring_span_receipts WHERE project_id = ?').get(projectId) as { last_received_at: string } | undefined;
    return row?.last_received_at ?? null;
  }
}
