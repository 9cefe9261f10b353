import type { AgentObject, PostAgentsBody } from '@svc/contract';
import { AppError, notFound } from '../http/errors.js';
import type { LookupScope } from '../http/principal.js';
import { type Sealer, secretHint } from '../shared/sealing.js';
import { newId, nowIso } from '../shared/ids.js';
import type { Page } from '../storage/sqlite/keyset.js';
import { type AgentMonitoringStatusSource, NOT_MONITORED } from './monitoring-status.js';
import type { AgentRecord, AgentRepository, RestoreOutcome } from './repository.js';

/** The sealing context of an agent's monitoring key: binds the ciphertext to the row. */
export const monitoringKeyContext = (agentId: string) => `agent:${agentId}:monitoring_api_key`;

/** Turns a refused restore into its error. */
export function restoreRefusal(outcome: Extract<RestoreOutcome<unknown>, { ok: false }>, what: 'agent' | 'connection', name: string | undefined): AppError {
  switch (outcome.reason) {
    case 'not_found':
      return notFound(what);
    case 'not_archived':
      return new AppError('not_archived', `The ${what} is not archived; only archived ${what}s can be restored.`);
    case 'agent_archived':
      return new AppError('agent_archived', 'The connection\'s agent is archived; restore the agent first.');
    case 'name_taken':
      return new AppError('name_taken', `An active ${what} already holds this name; restore it under another with {"name": "..."}.`, name ? { name } : undefined);
  }
}

/** Agents: registration, listing, archive and restore, with monitoring status merged in. */
export class AgentService {
  constructor(
    private readonly agents: AgentRepository,
    private readonly sealer: Sealer,
    private readonly monitoring: AgentMonitoringStatusSource,
  ) {}

  async register(project: { organizationId: string; projectId: string }, body: PostAgentsBody): Promise<AgentObject> {
    if (body.agentPlatform === 'platform_a' && !body.platformAgentId) {
      throw new AppError('validation_failed', 'The body is not valid: platformAgentId: platform_a agents need their platform agent id', {
        issues: [{ path: 'platformAgentId', message: 'platform_a agents need their platform agent id' }],
      });
    }
    const id = newId('agt_');
    const at = nowIso();
    const key = body.monitoringApiKey;
    const record: AgentRecord = {
      id,
      organizationId: project.organizationId,
      projectId: project.projectId,
      name: body.name,
      agentPlatform: body.agentPlatform,
      platformAgentId: body.platformAgentId ?? '',
      platformAModality: body.platformAModality ?? 'voice',
      monitoringKeySealed: key ? this.sealer.seal(key, monitoringKeyContext(id)) : null,
      monitoringKeyHint: key ? secretHint(key) : '',
      createdAt: at,
      updatedAt: at,
      archivedAt: null,
    };
    const created = await this.agents.insert(record);
    if (!created) throw new AppError('name_taken', `An active agent of the project is already named "${body.name}".`, { name: body.name });
    return (await this.toObjects([created]))[0]!;
  }

  /**
   * Makes sure each platform_a agent a monitoring setup selects has an active
   * svc agent record (named as on the platform; the platform id is appended
   * when that name is taken), so monitored agents show up in `/v1/agents`.
   */
  async ensurePlatformAAgents(project: { organizationId: string; projectId: string }, agents: ReadonlyArray<{ id: string; name: string }>): Promise<void> {
    for (const agent of agents) {
      if (await this.agents.findActiveByPlatformAgent(project, 'platform_a', agent.id)) continue;
      for (const name of [agent.name, `${agent.name} (${agent.id})`]) {
        try {
          await this.register(project, { name, agentPlatform: 'platform_a', platformAgentId: agent.id, platformAModality: 'voice' });
          break;
        } catch (err) {
          if (!(err instanceof AppError && err.code === 'name_taken')) throw err;
        }
      }
    }
  }

  async list(project: { organizationId: string; projectId: string }, includeArchived: boolean, page: { afterId?: string | undefined; limit: number }): Promise<Page<AgentObject>> {
    const found = await this.agents.list(project, includeArchived, page);
    return { items: await this.toObjects(found.items), next: found.next };
  }

  /** The agent record (active or archived) visible in the scope; 404 otherwise. */
  async record(scope: LookupScope, agentId: string): Promise<AgentRecord> {
    const found = await this.agents.find(scope, agentId);
    if (!found) throw notFound('agent');
    return found;
  }

  async get(scope: LookupScope, agentId: string): Promise<AgentObject> {
    return (await this.toObjects([await this.record(scope, agentId)]))[0]!;
  }

  async archive(scope: LookupScope, agentId: string): Promise<AgentObject> {
    const archived = await this.agents.archive(scope, agentId, nowIso());
    if (!archived) throw notFound('agent');
    return (await this.toObjects([archived]))[0]!;
  }

  async restore(scope: LookupScope, agentId: string, name: string | undefined): Promise<AgentObject> {
    const outcome = await this.agents.restore(scope, agentId, name, nowIso());
    if (!outcome.ok) throw restoreRefusal(outcome, 'agent', name);
    return (await this.toObjects([outcome.record]))[0]!;
  }

  /** The opened monitoring key of an agent, for server-side callers only (never on the wire). */
  openMonitoringKey(agent: AgentRecord): string | null {
    return agent.monitoringKeySealed ? this.sealer.open(agent.monitoringKeySealed, monitoringKeyContext(agent.id)) : null;
  }

  private async toObjects(records: readonly AgentRecord[]): Promise<AgentObject[]> {
    const byProject = new Map<string, AgentRecord[]>();
    for (const r of records) byProject.set(r.projectId, [...(byProject.get(r.projectId) ?? []), r]);
    const statuses = new Map<string, typeof NOT_MONITORED>();
    for (const [projectId, group] of byProject) {
      const found = await this.monitoring.forAgents(projectId, group.map((r) => ({ agentId: r.id, agentPlatform: r.agentPlatform, platformAgentId: r.platformAgentId })));
      for (const [agentId, status] of found) statuses.set(agentId, status);
    }
    return records.map((r) => toAgentObject(r, statuses.get(r.id) ?? NOT_MONITORED));
  }
}

function toAgentObject(r: AgentRecord, status: typeof NOT_MONITORED): AgentObject {
  return {
    id: r.id,
    projectId: r.projectId,
    name: r.name,
    agentPlatform: r.agentPlatform,
    platformAgentId: r.platformAgentId,
    platformAModality: r.platformAModality,
    monitoringKeyPresent: r.monitoringKeySealed !== null || status.monitoringApiKeyHint !== null,
    monitoringApiKeyHint: r.monitoringKeySealed !== null ? r.monitoringKeyHint : (status.monitoringApiKeyHint ?? ''),
    pullProductionCalls: status.pullProductionCalls,
    monitoringConfigured: status.monitoringConfigured,
    lastReceivedAt: status.lastReceivedAt,
    archived: r.archivedAt !== null,
    archivedAt: r.archivedAt,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}
