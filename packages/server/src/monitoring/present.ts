import type { ImportFailure, MonitoredAgent, MonitoringSetup } from '@svc/contract';
import type { FailureRecord, SetupView } from './model.js';

const failureObject = (f: FailureRecord): ImportFailure => ({
  id: f.id,
  conversation_id: f.conversationId,
  reason: f.reason,
  attempts: f.attempts,
  first_failed_at: f.firstFailedAt,
  last_failed_at: f.lastFailedAt,
});

/** A setup as the wire shows it. `spanReceivedAt` is the platform_b arrival time (stored or not yet flushed). */
export function setupObject(view: SetupView, spanReceivedAt: string | null = null): MonitoringSetup {
  const s = view.setup;
  const isA = s.platform === 'platform_a';
  const agents: MonitoredAgent[] = view.agents.map((a) => ({
    id: a.platformAgentId,
    name: a.name,
    import_state: a.failures.length > 0 ? 'degraded' : a.backfillDone ? 'active' : 'importing',
    scan: { scanned: Math.min(a.scanned, a.total), total: a.total },
    last_success_at: a.lastSuccessAt,
    last_conversation_at: a.lastConversationAt,
    failures: a.failures.map(failureObject),
  }));
  return {
    platform: s.platform,
    strategy: isA ? 'platform_a_poll' : 'platform_b_otlp',
    health: { state: s.healthState, message: s.healthMessage, checked_at: s.healthCheckedAt },
    last_received_at: isA ? s.lastReceivedAt : spanReceivedAt,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
    api_key_hint: isA ? s.apiKeyHint : null,
    agents: isA ? agents : [],
  };
}
