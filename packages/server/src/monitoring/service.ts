import type { BodyOf, MonitoringSetup, PlatformAgentChoice, ReplayFailureResponse, savePlatformAMonitoring } from '@svc/contract';
import type { PlatformAgentDirectory } from '../agents/monitoring-status.js';
import { AppError, notFound } from '../http/errors.js';
import { type Logger, describeError } from '../logging/logger.js';
import type { PlatformAClient } from '../platform-a/client.js';
import type { PlatformAgent } from '../platform-a/schemas.js';
import type { ProjectRecord } from '../projects/repository.js';
import { nowIso } from '../shared/ids.js';
import { secretHint } from '../shared/sealing.js';
import { missingPermissions, platformRefusal } from './platform-errors.js';
import { setupObject } from './present.js';
import { healthAfter } from './read-call.js';
import type { SpanReceiptTracker } from './receipts.js';
import { type ReplayDeps, replayFailure } from './replay.js';
import type { SchedulerControl } from './scheduler.js';
import { platformKeyContext } from './sealing-context.js';

/** How a platform_a agent of a project is monitored; rendered on `/v1/agents` records. */
export interface PlatformAgentMonitoringStatus {
  /** The project's platform_a setup selects this agent. */
  monitoringConfigured: boolean;
  /** Selected, and the stored key is not refused by the platform: production calls are being pulled. */
  pullProductionCalls: boolean;
  /** When the importer last stored (or found already stored) a conversation of this agent. */
  lastReceivedAt: string | null;
  monitoringKeyPresent: boolean;
  monitoringApiKeyHint: string | null;
}

export interface MonitoringServiceDeps extends ReplayDeps {
  scheduler: SchedulerControl;
  receipts: SpanReceiptTracker;
  /** Registers `/v1/agents` records for the agents a saved setup selects. */
  agentDirectory?: PlatformAgentDirectory;
  log?: Logger;
}

const MAX_AGENT_PAGES = 100;

/** Monitoring setups: discover, save, enable, remove, replay, and the views other capabilities read. */
export class MonitoringService {
  constructor(private readonly deps: MonitoringServiceDeps) {}

  /** `GET /api/monitoring`: the project's setups, platform_a first. */
  async list(project: ProjectRecord): Promise<MonitoringSetup[]> {
    const views = await this.deps.repo.listViews(project.id);
    const received = await this.spanReceivedAt(project.id);
    return views.map((v) => setupObject(v, received));
  }

  /** Voice agents the key can see, sorted by name. The key is used for this call only. */
  async discover(apiKey: string): Promise<PlatformAgentChoice[]> {
    const agents = await this.allAgents(apiKey);
    return agents
      .filter((a) => a.modality === 'voice')
      .map((a) => ({ id: a.agent_id, name: a.name }))
      .sort((a, b) => a.name.localeCompare(b.name, 'en') || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /**
   * Checks the key's permissions and every chosen agent with the platform,
   * then seals the key and saves the selection under the platform's names.
   * Nothing is written unless every check passed.
   */
  async savePlatformA(project: ProjectRecord, body: BodyOf<typeof savePlatformAMonitoring>): Promise<MonitoringSetup> {
    const { client } = this.deps;
    const first = body.agents[0]!.id;
    const [agentProbe, historyProbe] = await Promise.all([client.getAgent(body.api_key, first), client.listConversations(body.api_key, { agentId: first, pageSize: 1 })]);
    for (const probe of [agentProbe, historyProbe]) if (!probe.ok && probe.kind === 'invalid_key') throw platformRefusal(probe);
    const missing = [
      ...(!agentProbe.ok && agentProbe.kind === 'missing_permission' ? ['agents_read'] : []),
      ...(!historyProbe.ok && historyProbe.kind === 'missing_permission' ? ['history_read', 'monitor'] : []),
    ];
    if (missing.length) throw missingPermissions(missing);
    for (const probe of [agentProbe, historyProbe]) if (!probe.ok && probe.kind !== 'not_found') throw platformRefusal(probe);

    const unknown: string[] = [];
    const notVoice: string[] = [];
    const chosen: Array<{ id: string; name: string }> = [];
    for (const choice of body.agents) {
      const answer = choice.id === first && agentProbe.ok ? agentProbe : await client.getAgent(body.api_key, choice.id);
      if (!answer.ok) {
        if (answer.kind === 'not_found') unknown.push(choice.id);
        else throw platformRefusal(answer);
      } else if (answer.value.modality !== 'voice') notVoice.push(choice.id);
      else chosen.push({ id: choice.id, name: answer.value.name });
    }
    if (unknown.length || notVoice.length) {
      throw new AppError(
        'unknown_platform_agent',
        `Only voice agents the key can see can be monitored${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''}${notVoice.length ? `; not voice agents: ${notVoice.join(', ')}` : ''}.`,
        { unknown, not_voice: notVoice },
      );
    }

    const now = nowIso();
    const view = await this.deps.repo.savePlatformA({
      organizationId: project.organizationId,
      projectId: project.id,
      sealedApiKey: this.deps.sealer.seal(body.api_key, platformKeyContext(project.id)),
      apiKeyHint: secretHint(body.api_key),
      agents: chosen,
      health: healthAfter(null),
      now,
    });
    this.deps.scheduler.restart(view.setup.id);
    try {
      await this.deps.agentDirectory?.ensurePlatformAAgents({ organizationId: project.organizationId, projectId: project.id }, chosen);
    } catch (err) {
      // The setup is saved and polling; the agent records are a convenience the next save retries.
      this.deps.log?.warn('could not register agent records for the monitored agents', describeError(err));
    }
    return setupObject(view);
  }

  /** `PUT /api/monitoring/platform_b-agents`: the record only. */
  async enablePlatformB(project: ProjectRecord): Promise<MonitoringSetup> {
    const view = await this.deps.repo.enablePlatformB(project.organizationId, project.id, nowIso());
    return setupObject(view, await this.spanReceivedAt(project.id));
  }

  /** Removes a setup; platform_a polling stops before this returns. Conversations stay. */
  async remove(project: ProjectRecord, platform: 'platform_a' | 'platform_b-agents'): Promise<void> {
    const removed = await this.deps.repo.deleteSetup(project.id, platform === 'platform_a' ? 'platform_a' : 'platform_b_agents');
    if (!removed) throw notFound('monitoring setup');
    this.deps.scheduler.cancel(removed);
  }

  /** `POST .../failures/:failureId/replay`. */
  replay(project: ProjectRecord, failureId: string): Promise<ReplayFailureResponse> {
    return replayFailure(this.deps, project.id, failureId);
  }

  /**
   * Notes that platform_b spans of a project arrived: cheap and coalesced
   * (memory now, one write per flush), safe to call on every ingest commit.
   * Feeds the platform_b setup's `last_received_at`.
   */
  notePlatformBSpansReceived(projectId: string, receivedAt: string | Date = new Date()): void {
    this.deps.receipts.note(projectId, typeof receivedAt === 'string' ? receivedAt : receivedAt.toISOString());
  }

  /** For `/v1/agents`: how each of these platform_a agent ids is monitored in the project (every id gets an entry). */
  async statusForPlatformAgents(projectId: string, platformAgentIds: readonly string[]): Promise<Map<string, PlatformAgentMonitoringStatus>> {
    const rows = new Map((await this.deps.repo.platformAgentStatuses(projectId, platformAgentIds)).map((r) => [r.platformAgentId, r]));
    const out = new Map<string, PlatformAgentMonitoringStatus>();
    for (const id of platformAgentIds) {
      const row = rows.get(id);
      out.set(id, {
        monitoringConfigured: Boolean(row),
        pullProductionCalls: Boolean(row && row.healthState !== 'invalid_credential'),
        lastReceivedAt: row?.lastReceivedAt ?? null,
        monitoringKeyPresent: Boolean(row?.apiKeyHint),
        monitoringApiKeyHint: row?.apiKeyHint ?? null,
      });
    }
    return out;
  }

  private async spanReceivedAt(projectId: string): Promise<string | null> {
    const stored = await this.deps.repo.spanReceipt(projectId);
    const pending = this.deps.receipts.pendingFor(projectId);
    if (!pending) return stored;
    return !stored || pending > stored ? pending : stored;
  }

  private async allAgents(apiKey: string): Promise<PlatformAgent[]> {
    const all: PlatformAgent[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_AGENT_PAGES; page++) {
      const answer = await this.deps.client.listAgents(apiKey, cursor);
      if (!answer.ok) {
        if (answer.kind === 'missing_permission') throw missingPermissions(['agents_read']);
        throw platformRefusal(answer);
      }
      all.push(...answer.value.agents);
      if (!answer.value.next_cursor) return all;
      cursor = answer.value.next_cursor;
    }
    throw new AppError('provider_unavailable', `platform_a listed more than ${MAX_AGENT_PAGES} pages of agents; the listing was stopped.`);
  }
}
