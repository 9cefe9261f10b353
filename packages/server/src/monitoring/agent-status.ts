import type { AgentMonitoringRef, AgentMonitoringStatus, AgentMonitoringStatusSource } from '../agents/monitoring-status.js';
import type { MonitoringService } from './service.js';

/**
 * The monitoring fields of `/v1/agents` records, from the project's
 * platform_a setup: an agent is monitored when the setup selects its platform id.
 */
export function agentMonitoringStatus(monitoring: () => MonitoringService): AgentMonitoringStatusSource {
  return {
    async forAgents(projectId: string, refs: readonly AgentMonitoringRef[]): Promise<Map<string, AgentMonitoringStatus>> {
      const platformA = refs.filter((r) => r.agentPlatform === 'platform_a' && r.platformAgentId !== '');
      const out = new Map<string, AgentMonitoringStatus>();
      if (platformA.length === 0) return out;
      const statuses = await monitoring().statusForPlatformAgents(projectId, [...new Set(platformA.map((r) => r.platformAgentId))]);
      for (const ref of platformA) {
        const s = statuses.get(ref.platformAgentId);
        if (!s) continue;
        out.set(ref.agentId, {
          monitoringConfigured: s.monitoringConfigured,
          pullProductionCalls: s.pullProductionCalls,
          lastReceivedAt: s.lastReceivedAt,
          monitoringApiKeyHint: s.monitoringConfigured ? s.monitoringApiKeyHint : null,
        });
      }
      return out;
    },
  };
}
