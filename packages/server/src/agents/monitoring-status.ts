import type { AgentPlatform } from '@svc/contract';

/** What an agent record needs to know about production monitoring. */
export interface AgentMonitoringStatus {
  monitoringConfigured: boolean;
  pullProductionCalls: boolean;
  lastReceivedAt: string | null;
  /** Hint of the platform key a monitoring setup holds for this agent, when the agent has none of its own. */
  monitoringApiKeyHint: string | null;
}

/** The agent a monitoring status is asked for. */
export interface AgentMonitoringRef {
  agentId: string;
  agentPlatform: AgentPlatform;
  platformAgentId: string;
}

/**
 * Supplies the monitoring fields of agent records (`monitoringConfigured`,
 * `pullProductionCalls`, `lastReceivedAt`). The monitoring capability
 * implements it; agents absent from the map read as not monitored.
 */
export interface AgentMonitoringStatusSource {
  forAgents(projectId: string, refs: readonly AgentMonitoringRef[]): Promise<Map<string, AgentMonitoringStatus>>;
}

export const NOT_MONITORED: AgentMonitoringStatus = { monitoringConfigured: false, pullProductionCalls: false, lastReceivedAt: null, monitoringApiKeyHint: null };

/** Reports every agent as not monitored; used until monitoring is wired in. */
export const noMonitoringStatus: AgentMonitoringStatusSource = { forAgents: async () => new Map() };

/** Registers svc agent records for platform agents a monitoring setup selects. */
export interface PlatformAgentDirectory {
  ensurePlatformAAgents(project: { organizationId: string; projectId: string }, agents: ReadonlyArray<{ id: string; name: string }>): Promise<void>;
}
