import type { RelationalStore } from '../storage/sqlite/connection.js';
import type { FailureRecord } from './model.js';
import { type FailureRow, toFailure } from './rows.js';

/**
 * Import failures and their leases. A replay (or the importer's automatic
 * retry) owns a failure only while its lease runs; a crashed owner's lease
 * simply expires, so no failure stays claimed forever.
 */
export class SqliteFailureRepository {
  constructor(private readonly store: RelationalStore) {}

  /** A failure of the project, open or resolved. */
  async find(projectId: string, failureId: string): Promise<FailureRecord | null> {
    const row = this.store.db.prepare('SELECT * FROM monitoring_failures WHERE id = ? AND project_id = ?').get(failureId, projectId) as FailureRow | undefined;
    return row ? toFailure(row) : null;
  }

  /** Takes the lease if the failure is open and nobody holds an unexpired lease: one atomic update, so two claimants never both win. */
  async claim(failureId: string, owner: string, now: string, leaseMs: number): Promise<boolean> {
    const expires = new Date(Date.parse(now) + leaseMs).toISOString();
    const changes = this.store.db
      .prepare(
        `UPDATE monitoring_failures SET lease_owner = ?, lease_expires_at = ?
         WHERE id = ? AND status = 'open' AND (lease_expires_at IS NULL OR lease_expires_at <= ?)`,
      )
      .run(owner, expires, failureId, now).changes;
    return changes === 1;
  }

  /** Records a failed read by the lease owner and gives the lease up. */
  async recordAttempt(failureId: string, owner: string, reason: string, now: string, nextRetryAt: string | null): Promise<void> {
    this.store.db
      .prepare(
        `UPDATE monitoring_failures SET attempts = attempts + 1, reason = ?, last_failed_at = ?, next_retry_at = ?, lease_owner = NULL, lease_expires_at = NULL
         WHERE id = ? AND lease_owner = ?`,
      )
      .run(reason, now, nextRetryAt, failureId, owner);
  }

  /** Gives the lease up without counting an attempt (the platform refused the call as a whole). */
  async release(failureId: string, owner: string): Promise<void> {
    this.store.db.prepare('UPDATE monitoring_failures SET lease_owner = NULL, lease_expires_at = NULL WHERE id = ? AND lease_owner = ?').run(failureId, owner);
  }

  /**
   * Resolves a failure whose conversation is now stored, and marks the call
   * imported with the agent's arrival times, in one transaction.
   */
  async resolve(failure: FailureRecord, write: 'written' | 'already', startUnix: number, now: string): Promise<void> {
    const db = this.store.db;
    const newest = new Date(startUnix * 1000).toISOString();
    this.store.immediate(() => {
      const changed = db
        .prepare(
          `UPDATE monitoring_failures SET status = 'resolved', resolved_at = ?, resolved_write = ?, attempts = attempts + 1, lease_owner = NULL, lease_expires_at = NULL
           WHERE id = ? AND status = 'open'`,
        )
        .run(now, write, failure.id).changes;
      if (changed === 0) return;
      db.prepare("UPDATE monitoring_calls SET state = 'imported' WHERE setup_id = ? AND conversation_id = ?").run(failure.setupId, failure.conversationId);
      db.prepare(
        `UPDATE monitoring_agents SET last_conversation_at = max(coalesce(last_conversation_at, ''), ?), last_received_at = ?
         WHERE setup_id = ? AND platform_agent_id = ?`,
      ).run(newest, now, failure.setupId, failure.platformAgentId);
      db.prepare('UPDATE monitoring_setups SET last_received_at = ? WHERE id = ?').run(now, failure.setupId);
    });
  }

  /** Open failures of an agent whose automatic retry is due and whose lease is free. */
  async dueForRetry(setupId: string, agentId: string, now: string, maxAttempts: number, limit: number): Promise<FailureRecord[]> {
    const rows = this.store.db
      .prepare(
        `SELECT * FROM monitoring_failures WHERE setup_id = ? AND platform_agent_id = ? AND status = 'open' AND attempts < ?
           AND next_retry_at IS NOT NULL AND next_retry_at <= ? AND (lease_expires_at IS NULL OR lease_expires_at <= ?)
         ORDER BY next_retry_at LIMIT ?`,
      )
      .all(setupId, agentId, maxAttempts, now, now, limit) as FailureRow[];
    return rows.map(toFailure);
  }
}
