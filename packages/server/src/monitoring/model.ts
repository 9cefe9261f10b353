import type { MonitoringHealthState, MonitoringPlatform } from '@svc/contract';

/** A monitoring setup row. */
export interface SetupRecord {
  id: string;
  organizationId: string;
  projectId: string;
  platform: MonitoringPlatform;
  sealedApiKey: string | null;
  apiKeyHint: string | null;
  healthState: MonitoringHealthState;
  healthMessage: string;
  healthCheckedAt: string | null;
  /** No platform call before this time (the platform's Retry-After). */
  notBefore: string | null;
  lastReceivedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A selected platform_a agent with its importer state. */
export interface AgentRecord {
  setupId: string;
  platformAgentId: string;
  name: string;
  backfillDone: boolean;
  /** Every conversation started before this (minus the overlap) has been listed; null until the first listing completes. */
  watermarkUnix: number | null;
  /** The unfinished listing: its lower bound, the platform's cursor of the next page, and the newest start seen. */
  passSinceUnix: number | null;
  passCursor: string | null;
  passHighUnix: number | null;
  scanned: number;
  total: number;
  lastSuccessAt: string | null;
  lastConversationAt: string | null;
  lastReceivedAt: string | null;
}

/** An import failure row. */
export interface FailureRecord {
  id: string;
  organizationId: string;
  projectId: string;
  setupId: string;
  platformAgentId: string;
  conversationId: string;
  reason: string;
  attempts: number;
  status: 'open' | 'resolved';
  firstFailedAt: string;
  lastFailedAt: string;
  nextRetryAt: string | null;
  leaseOwner: string | null;
  leaseExpiresAt: string | null;
  resolvedWrite: 'written' | 'already' | null;
}

/** A setup with its agents and their open failures: what `GET /api/monitoring` shows. */
export interface SetupView {
  setup: SetupRecord;
  agents: Array<AgentRecord & { failures: FailureRecord[] }>;
}

/** What the importer did with one listed conversation in a batch. */
export type CallOutcome =
  | { kind: 'imported'; conversationId: string; startUnix: number; write: 'written' | 'already' }
  | { kind: 'skipped'; conversationId: string }
  | { kind: 'pending'; conversationId: string }
  | { kind: 'failed'; conversationId: string; reason: string; attempts: number }
  | { kind: 'fetch_error'; conversationId: string };

/** A health observation: the state that follows one platform answer. */
export interface HealthNote {
  state: MonitoringHealthState;
  message: string;
  at: string;
  notBefore?: string | null;
}
