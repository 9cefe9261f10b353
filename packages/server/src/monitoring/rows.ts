import type { MonitoringHealthState, MonitoringPlatform } from '@svc/contract';
import type { AgentRecord, FailureRecord, SetupRecord } from './model.js';

// Row shapes of the monitoring tables and their conversion to domain records.

export interface SetupRow {
  id: string;
  organization_id: string;
  project_id: string;
  platform: MonitoringPlatform;
  sealed_api_key: string | null;
  api_key_hint: string | null;
  health_state: MonitoringHealthState;
  health_message: string;
  health_checked_at: string | null;
  not_before: string | null;
  last_received_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface AgentRow {
  setup_id: string;
  platform_agent_id: string;
  name: string;
  backfill_done: number;
  watermark_unix: number | null;
  pass_since_unix: number | null;
  pass_cursor: string | null;
  pass_high_unix: number | null;
  scanned: number;
  total: number;
  last_success_at: string | null;
  last_conversation_at: string | null;
  last_received_at: string | null;
}

export interface FailureRow {
  id: string;
  organization_id: string;
  project_id: string;
  setup_id: string;
  platform_agent_id: string;
  conversation_id: string;
  reason: string;
  attempts: number;
  status: 'open' | 'resolved';
  first_failed_at: string;
  last_failed_at: string;
  next_retry_at: string | null;
  lease_owner: string | null;
  lease_expires_at: string | null;
  resolved_write: 'written' | 'already' | null;
}

/** A `monitoring_setups` row as a domain record. */
export const toSetup = (r: SetupRow): SetupRecord => ({
  id: r.id,
  organizationId: r.organization_id,
  projectId: r.project_id,
  platform: r.platform,
  sealedApiKey: r.sealed_api_key,
  apiKeyHint: r.api_key_hint,
  healthState: r.health_state,
  healthMessage: r.health_message,
  healthCheckedAt: r.health_checked_at,
  notBefore: r.not_before,
  lastReceivedAt: r.last_received_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** A `monitoring_agents` row as a domain record. */
export const toAgent = (r: AgentRow): AgentRecord => ({
  setupId: r.setup_id,
  platformAgentId: r.platform_agent_id,
  name: r.name,
  backfillDone: r.backfill_done === 1,
  watermarkUnix: r.watermark_unix,
  passSinceUnix: r.pass_since_unix,
  passCursor: r.pass_cursor,
  passHighUnix: r.pass_high_unix,
  scanned: r.scanned,
  total: r.total,
  lastSuccessAt: r.last_success_at,
  lastConversationAt: r.last_conversation_at,
  lastReceivedAt: r.last_received_at,
});

/** A `monitoring_failures` row as a domain record. */
export const toFailure = (r: FailureRow): FailureRecord => ({
  id: r.id,
  organizationId: r.organization_id,
  projectId: r.project_id,
  setupId: r.setup_id,
  platformAgentId: r.platform_agent_id,
  conversationId: r.conversation_id,
  reason: r.reason,
  attempts: r.attempts,
  status: r.status,
  firstFailedAt: r.first_failed_at,
  lastFailedAt: r.last_failed_at,
  nextRetryAt: r.next_retry_at,
  leaseOwner: r.lease_owner,
  leaseExpiresAt: r.lease_expires_at,
  resolvedWrite: r.resolved_write,
});
