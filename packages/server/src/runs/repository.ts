import type { RunEvent, RunObject, RunStatus } from '@svc/contract';
import type { LookupScope } from '../http/principal.js';
import { newId } from '../shared/ids.js';
import type { RelationalStore } from '../storage/sqlite/connection.js';
import { type Page, keysetPage } from '../storage/sqlite/keyset.js';
import { appendEvents, readEvents } from './events.js';
import { type RunRow, callsOfRun, isTerminal, summaries, toCallResult, toRunListItem } from './rows.js';

/** One call a new run expands into. */
export interface NewCall {
  testId: string;
  testVersionId: string;
  personaId: string;
  personaName: string;
  personaDescription: string | null;
  repetition: number;
}

export interface NewRun {
  organizationId: string;
  projectId: string;
  agentId: string;
  connectionId: string;
  testVersions: string[];
  repeat: number;
  concurrency: number;
  createdByUserId: string;
  idempotencyKey: string | undefined;
  requestHash: string;
  calls: NewCall[];
  at: string;
}

export type CreateOutcome = { kind: 'created' | 'replayed'; runId: string } | { kind: 'conflict'; runId: string };

export type CancelOutcome = { kind: 'canceled' | 'already_canceled'; runId: string } | { kind: 'finished'; status: RunStatus } | { kind: 'not_found' };

export interface RunListFilter {
  status?: RunStatus | undefined;
  agentId?: string | undefined;
  afterId?: string | undefined;
  limit: number;
}

function scopeWhere(scope: LookupScope): { sql: string; params: unknown[] } {
  return scope.projectId
    ? { sql: 'organization_id = ? AND project_id = ?', params: [scope.organizationId, scope.projectId] }
    : { sql: 'organization_id = ?', params: [scope.organizationId] };
}

/** Runs as their API sees them: creation, reads, lists and cancel. The executor's side is `CallQueue`. */
export class RunRepository {
  constructor(private readonly store: RelationalStore) {}

  /**
   * Inserts the run, its calls and `run.queued` in one transaction. With an
   * idempotency key already used in the project, nothing is written: the
   * same request hash replays that run, another one is a conflict.
   */
  async create(run: NewRun): Promise<CreateOutcome> {
    const db = this.store.db;
    return this.store.immediate((): CreateOutcome => {
      if (run.idempotencyKey !== undefined) {
        const found = db.prepare('SELECT id, request_hash FROM runs WHERE project_id = ? AND idempotency_key = ?').get(run.projectId, run.idempotencyKey) as
          | { id: string; request_hash: string }
          | undefined;
        if (found) return { kind: found.request_hash === run.requestHash ? 'replayed' : 'conflict', runId: found.id };
      }
      const id = newId('run_');
      db.prepare(
        `INSERT INTO runs (id, organization_id, project_id, agent_id, connection_id, test_versions, repeat, concurrency, status, idempotency_key, request_hash, created_by_user_id, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?)`,
      ).run(id, run.organizationId, run.projectId, run.agentId, run.connectionId, JSON.stringify(run.testVersions), run.repeat, run.concurrency, run.idempotencyKey ?? null, run.requestHash, run.createdByUserId, run.at);
      const insert = db.prepare(
        `INSERT INTO run_calls (id, run_id, organization_id, position, test_id, test_version_id, persona_id, persona_name, persona_description, repetition, status)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued')`,
      );
      run.calls.forEach((c, i) => insert.run(newId('call_'), id, run.organizationId, i, c.testId, c.testVersionId, c.personaId, c.personaName, c.personaDescription, c.repetition));
      appendEvents(db, id, [{ type: 'run.queued', data: { calls: run.calls.length } }], run.at);
      return { kind: 'created', runId: id };
    });
  }

  /** The run an idempotency key of the project made, with its request hash. */
  async findByIdempotencyKey(projectId: string, key: string): Promise<{ runId: string; requestHash: string } | null> {
    const row = this.store.db.prepare('SELECT id, request_hash FROM runs WHERE project_id = ? AND idempotency_key = ?').get(projectId, key) as { id: string; request_hash: string } | undefined;
    return row ? { runId: row.id, requestHash: row.request_hash } : null;
  }

  /** Events of a run after `after` (the caller has checked the run is visible). */
  async events(runId: string, after: number, limit: number): Promise<RunEvent[]> {
    return readEvents(this.store.db, runId, after, limit);
  }

  /** The run with every call's result; null when invisible in the scope. */
  async get(scope: LookupScope, runId: string): Promise<RunObject | null> {
    const where = scopeWhere(scope);
    const db = this.store.db;
    const row = db.prepare(`SELECT * FROM runs WHERE id = ? AND ${where.sql}`).get(runId, ...where.params) as RunRow | undefined;
    if (!row) return null;
    const results = callsOfRun(db, runId).map(toCallResult);
    return { ...toRunListItem(row, summaries(db, [runId]).get(runId)!), results };
  }

  /** The run's status and last event seq (for event reads); null when invisible. */
  async head(scope: LookupScope, runId: string): Promise<{ status: RunStatus; lastEventSeq: number } | null> {
    const where = scopeWhere(scope);
    const row = this.store.db.prepare(`SELECT status, last_event_seq FROM runs WHERE id = ? AND ${where.sql}`).get(runId, ...where.params) as
      | { status: RunStatus; last_event_seq: number }
      | undefined;
    return row ? { status: row.status, lastEventSeq: row.last_event_seq } : null;
  }

  async list(projectId: string, filter: RunListFilter): Promise<Page<ReturnType<typeof toRunListItem>>> {
    const conditions = ['project_id = ?'];
    const params: unknown[] = [projectId];
    if (filter.status) (conditions.push('status = ?'), params.push(filter.status));
    if (filter.agentId) (conditions.push('agent_id = ?'), params.push(filter.agentId));
    const page = keysetPage<RunRow, RunRow>(this.store.db, { table: 'runs', where: conditions.join(' AND '), params, afterId: filter.afterId, limit: filter.limit }, (r) => r);
    const sums = summaries(
      this.store.db,
      page.items.map((r) => r.id),
    );
    return { items: page.items.map((r) => toRunListItem(r, sums.get(r.id)!)), next: page.next };
  }

  /**
   * Cancels in one transaction: queued calls become `canceled` silently,
   * running ones `canceled` with a `call.finished`, then `run.canceled` —
   * the last event. The executor's later writes to those calls are refused.
   */
  async cancel(scope: LookupScope, runId: string, at: string): Promise<CancelOutcome> {
    const where = scopeWhere(scope);
    const db = this.store.db;
    return this.store.immediate((): CancelOutcome => {
      const run = db.prepare(`SELECT id, status FROM runs WHERE id = ? AND ${where.sql}`).get(runId, ...where.params) as { id: string; status: RunStatus } | undefined;
      if (!run) return { kind: 'not_found' };
      if (run.status === 'canceled') return { kind: 'already_canceled', runId };
      if (isTerminal(run.status)) return { kind: 'finished', status: run.status };
      const running = db.prepare(`SELECT id FROM run_calls WHERE run_id = ? AND status = 'running' ORDER BY position`).all(runId) as Array<{ id: string }>;
      const problem = { code: 'canceled', message: 'The run was canceled.' };
      db.prepare(
        `UPDATE run_calls SET status = 'canceled', end_reason = CASE WHEN status = 'running' THEN 'canceled' ELSE NULL END,
           problem_code = ?, problem_message = ?, finished_at = CASE WHEN status = 'running' THEN ? ELSE NULL END
         WHERE run_id = ? AND status IN ('queued', 'running')`,
      ).run(problem.code, problem.message, at, runId);
      db.prepare(`UPDATE runs SET status = 'canceled', finished_at = ? WHERE id = ?`).run(at, runId);
      appendEvents(
        db,
        runId,
        [
          ...running.map((c) => ({ type: 'call.finished' as const, data: { call_id: c.id, status: 'canceled' as const, end_reason: 'canceled' as const, problem } })),
          { type: 'run.canceled', data: { summary: summaries(db, [runId]).get(runId)! } },
        ],
        at,
      );
      return { kind: 'canceled', runId };
    });
  }
}
