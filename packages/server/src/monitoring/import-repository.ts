import { newId } from '../shared/ids.js';
import type { RelationalStore } from '../storage/sqlite/connection.js';
import type { CallOutcome, HealthNote } from './model.js';

/** The agent's rows are gone (setup deleted or agent dropped from the selection) while a run was working on it. */
export class AgentGoneError extends Error {
  constructor() {
    super('the monitored agent no longer exists');
  }
}

/** A listed conversation as the importer sees it. */
export interface ListedCall {
  conversationId: string;
  startUnix: number;
  status: string;
}

/** A call waiting for work: `queued` to fetch, `pending` to re-check. */
export interface WorkItem {
  conversationId: string;
  startUnix: number;
  fetchErrors: number;
  firstSeenAt: string;
}

const stateOfListed = (status: string) => (status === 'done' ? 'queued' : status === 'failed' ? 'skipped' : 'pending');

/**
 * The importer's durable state: listing progress, listed calls and what
 * became of each, health. Every batch of results commits in one
 * transaction, after the conversations themselves are stored, so a crash
 * repeats at most one batch and `insertOnce` makes the repeat harmless.
 */
export class SqliteImportRepository {
  constructor(private readonly store: RelationalStore) {}

  /** Starts a listing from `sinceUnix` unless one is unfinished. */
  async beginPass(setupId: string, agentId: string, sinceUnix: number): Promise<void> {
    const changed = this.store.db
      .prepare('UPDATE monitoring_agents SET pass_since_unix = ?, pass_cursor = NULL, pass_high_unix = watermark_unix WHERE setup_id = ? AND platform_agent_id = ?')
      .run(sinceUnix, setupId, agentId).changes;
    if (changed === 0) throw new AgentGoneError();
  }

  /**
   * Records one listed page: new calls join the work list, a pending call
   * listed as done becomes queued, and the listing moves to `nextCursor`.
   * The last page turns the newest start seen into the watermark.
   */
  async recordPage(setupId: string, agentId: string, calls: readonly ListedCall[], nextCursor: string | null, now: string): Promise<{ added: number }> {
    const db = this.store.db;
    const find = db.prepare('SELECT state FROM monitoring_calls WHERE setup_id = ? AND conversation_id = ?');
    const insert = db.prepare('INSERT INTO monitoring_calls (setup_id, platform_agent_id, conversation_id, start_time_unix, state, first_seen_at) VALUES (?, ?, ?, ?, ?, ?)');
    const promote = db.prepare("UPDATE monitoring_calls SET state = ? WHERE setup_id = ? AND conversation_id = ? AND state = 'pending'");
    try {
      return this.store.immediate(() => {
        let added = 0;
        let settled = 0;
        let high: number | null = null;
        for (const call of calls) {
          high = high === null ? call.startUnix : Math.max(high, call.startUnix);
          const state = stateOfListed(call.status);
          const existing = find.get(setupId, call.conversationId) as { state: string } | undefined;
          if (!existing) {
            insert.run(setupId, agentId, call.conversationId, Math.floor(call.startUnix), state, now);
            added++;
            if (state === 'skipped') settled++;
          } else if (existing.state === 'pending' && state !== 'pending') {
            promote.run(state, setupId, call.conversationId);
            if (state === 'skipped') settled++;
          }
        }
        const last = nextCursor === null;
        const changed = db
          .prepare(
            `UPDATE monitoring_agents SET total = total + ?, scanned = scanned + ?,
               pass_high_unix = CASE WHEN ? IS NULL THEN pass_high_unix ELSE max(coalesce(pass_high_unix, ?), ?) END,
               pass_cursor = ?
             WHERE setup_id = ? AND platform_agent_id = ?`,
          )
          .run(added, settled, high, high, high, nextCursor, setupId, agentId).changes;
        if (changed === 0) throw new AgentGoneError();
        if (last) {
          db.prepare(
            `UPDATE monitoring_agents SET watermark_unix = coalesce(pass_high_unix, watermark_unix, pass_since_unix), pass_since_unix = NULL, pass_cursor = NULL, pass_high_unix = NULL
             WHERE setup_id = ? AND platform_agent_id = ?`,
          ).run(setupId, agentId);
        }
        return { added };
      });
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY') throw new AgentGoneError();
      throw err;
    }
  }

  /** Calls in a state, newest first. */
  async work(setupId: string, agentId: string, state: 'queued' | 'pending', limit: number): Promise<WorkItem[]> {
    const rows = this.store.db
      .prepare(
        `SELECT conversation_id, start_time_unix, fetch_errors, first_seen_at FROM monitoring_calls
         WHERE setup_id = ? AND platform_agent_id = ? AND state = ? ORDER BY start_time_unix DESC, conversation_id DESC LIMIT ?`,
      )
      .all(setupId, agentId, state, limit) as Array<{ conversation_id: string; start_time_unix: number; fetch_errors: number; first_seen_at: string }>;
    return rows.map((r) => ({ conversationId: r.conversation_id, startUnix: r.start_time_unix, fetchErrors: r.fetch_errors, firstSeenAt: r.first_seen_at }));
  }

  /**
   * Commits a batch of outcomes with the health that followed: counters,
   * arrival times, and an import failure for each call that failed (open,
   * first automatic retry at `retryAt`).
   */
  async settle(
    target: { organizationId: string; projectId: string; setupId: string; agentId: string },
    outcomes: readonly CallOutcome[],
    health: HealthNote | null,
    now: string,
    retryAt: string,
  ): Promise<void> {
    const db = this.store.db;
    const { setupId, agentId } = target;
    const move = db.prepare("UPDATE monitoring_calls SET state = ? WHERE setup_id = ? AND conversation_id = ? AND state IN ('queued', 'pending')");
    const openFailure = db.prepare(
      `INSERT INTO monitoring_failures (id, organization_id, project_id, setup_id, platform_agent_id, conversation_id, reason, attempts, status, first_failed_at, last_failed_at, next_retry_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?, ?)
       ON CONFLICT (setup_id, conversation_id) DO UPDATE SET status = 'open', reason = excluded.reason, attempts = attempts + excluded.attempts,
         last_failed_at = excluded.last_failed_at, next_retry_at = excluded.next_retry_at, resolved_at = NULL, resolved_write = NULL`,
    );
    try {
      this.store.immediate(() => {
        let settled = 0;
        let newest: number | null = null;
        let received = false;
        for (const o of outcomes) {
          if (o.kind === 'imported') {
            settled += move.run('imported', setupId, o.conversationId).changes;
            newest = newest === null ? o.startUnix : Math.max(newest, o.startUnix);
            received = true;
          } else if (o.kind === 'skipped') {
            settled += move.run('skipped', setupId, o.conversationId).changes;
          } else if (o.kind === 'pending') {
            move.run('pending', setupId, o.conversationId);
          } else if (o.kind === 'failed') {
            const moved = move.run('failed', setupId, o.conversationId).changes;
            settled += moved;
            if (moved) openFailure.run(newId('imf_'), target.organizationId, target.projectId, setupId, agentId, o.conversationId, o.reason, o.attempts, now, now, retryAt);
          } else {
            db.prepare('UPDATE monitoring_calls SET fetch_errors = fetch_errors + 1 WHERE setup_id = ? AND conversation_id = ?').run(setupId, o.conversationId);
          }
        }
        const newestIso = newest === null ? null : new Date(newest * 1000).toISOString();
        const changed = db
          .prepare(
            `UPDATE monitoring_agents SET scanned = scanned + ?,
               last_conversation_at = CASE WHEN ? IS NULL THEN last_conversation_at ELSE max(coalesce(last_conversation_at, ''), ?) END,
               last_received_at = CASE WHEN ? THEN ? ELSE last_received_at END
             WHERE setup_id = ? AND platform_agent_id = ?`,
          )
          .run(settled, newestIso, newestIso, received ? 1 : 0, now, setupId, agentId).changes;
        if (changed === 0) throw new AgentGoneError();
        if (received) db.prepare('UPDATE monitoring_setups SET last_received_at = ? WHERE id = ?').run(now, setupId);
        if (health) this.writeHealth(setupId, health);
      });
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY') throw new AgentGoneError();
      throw err;
    }
  }

  /** Records the state that followed the platform's last answer (and when calls may resume). */
  async noteHealth(setupId: string, health: HealthNote): Promise<void> {
    this.writeHealth(setupId, health);
  }

  private writeHealth(setupId: string, h: HealthNote): void {
    this.store.db
      .prepare('UPDATE monitoring_setups SET health_state = ?, health_message = ?, health_checked_at = ?, not_before = ? WHERE id = ?')
      .run(h.state, h.message, h.at, h.notBefore ?? null, setupId);
  }

  /**
   * Ends a run that the platform answered in full: marks the success, ends
   * the backfill once its listing is done and nothing is queued, and forgets
   * settled calls older than anything a listing can show again.
   */
  async finishRun(setupId: string, agentId: string, now: string, pruneBeforeUnix: number): Promise<void> {
    const db = this.store.db;
    this.store.immediate(() => {
      db.prepare(
        `UPDATE monitoring_agents SET last_success_at = ?,
           backfill_done = CASE WHEN backfill_done = 1 OR (watermark_unix IS NOT NULL AND pass_cursor IS NULL AND NOT EXISTS (
             SELECT 1 FROM monitoring_calls c WHERE c.setup_id = monitoring_agents.setup_id AND c.platform_agent_id = monitoring_agents.platform_agent_id AND c.state = 'queued'))
             THEN 1 ELSE 0 END
         WHERE setup_id = ? AND platform_agent_id = ?`,
      ).run(now, setupId, agentId);
      db.prepare("DELETE FROM monitoring_calls WHERE setup_id = ? AND platform_agent_id = ? AND state IN ('imported', 'skipped') AND start_time_unix < ?").run(setupId, agentId, pruneBeforeUnix);
    });
  }
}
