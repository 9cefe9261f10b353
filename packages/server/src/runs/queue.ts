import type { BehaviorResult, CallStatus, EndReason, RunProblem, RunStatus, ToolCallRecord, TranscriptEntry } from '@svc/contract';
import type { RelationalStore, SqliteDb } from '../storage/sqlite/connection.js';
import { type NewEvent, appendEvents } from './events.js';
import { summaries } from './rows.js';

/** A call the executor has claimed, with what it needs to run it. */
export interface ClaimedCall {
  id: string;
  runId: string;
  organizationId: string;
  projectId: string;
  agentId: string;
  connectionId: string;
  testVersionId: string;
  personaId: string;
  personaName: string;
  personaDescription: string | null;
  repetition: number;
  startedAt: string;
}

/** What a call has produced so far. */
export interface CallProgress {
  transcript: TranscriptEntry[];
  toolCalls: ToolCallRecord[];
  latency: { p50: number; p95: number } | null;
}

export interface CallOutcome extends CallProgress {
  status: Extract<CallStatus, 'passed' | 'failed' | 'error'>;
  endReason: EndReason | null;
  problem: RunProblem | null;
  behaviors: BehaviorResult[];
  judge: { prompt_version: string; model: string } | null;
}

const ACTIVE = `status IN ('queued', 'running')`;

/** The status a run ends with, from its calls' statuses. */
function finalStatus(db: SqliteDb, runId: string): RunStatus {
  const counts = summaries(db, [runId]).get(runId)!.calls;
  if (counts.failed > 0) return 'failed';
  if (counts.error > 0 || counts.canceled > 0) return 'error';
  return 'passed';
}

/**
 * The execution queue over `run_calls`: claims under the concurrency limits,
 * progress and results guarded by `status = 'running'`, and recovery after a
 * crash. Every method is one immediate transaction.
 */
export class CallQueue {
  constructor(private readonly store: RelationalStore) {}

  /**
   * Claims the oldest queued call whose organization runs fewer than
   * `orgLimit` calls and whose run fewer than its `concurrency`; marks the
   * run started on its first claim. Null when nothing can start now.
   */
  claim(orgLimit: number, at: string): ClaimedCall | null {
    const db = this.store.db;
    return this.store.immediate((): ClaimedCall | null => {
      const row = db
        .prepare(
          `SELECT c.id, c.run_id, c.organization_id, c.test_version_id, c.persona_id, c.persona_name, c.persona_description, c.repetition,
                  r.project_id, r.agent_id, r.connection_id, r.status AS run_status
           FROM run_calls c JOIN runs r ON r.id = c.run_id
           WHERE c.status = 'queued' AND r.status IN ('queued', 'running')
             AND (SELECT count(*) FROM run_calls o WHERE o.status = 'running' AND o.organization_id = c.organization_id) < ?
             AND (SELECT count(*) FROM run_calls p WHERE p.run_id = c.run_id AND p.status = 'running') < r.concurrency
           ORDER BY c.seq LIMIT 1`,
        )
        .get(orgLimit) as
        | { id: string; run_id: string; organization_id: string; test_version_id: string; persona_id: string; persona_name: string; persona_description: string | null; repetition: number; project_id: string; agent_id: string; connection_id: string; run_status: RunStatus }
        | undefined;
      if (!row) return null;
      db.prepare(`UPDATE run_calls SET status = 'running', started_at = ? WHERE id = ?`).run(at, row.id);
      const events: NewEvent[] = [];
      if (row.run_status === 'queued') {
        db.prepare(`UPDATE runs SET status = 'running', started_at = ? WHERE id = ?`).run(at, row.run_id);
        events.push({ type: 'run.started', data: {} });
      }
      events.push({ type: 'call.started', data: { call_id: row.id, test_version_id: row.test_version_id, persona_id: row.persona_id, repetition: row.repetition } });
      appendEvents(db, row.run_id, events, at);
      return {
        id: row.id,
        runId: row.run_id,
        organizationId: row.organization_id,
        projectId: row.project_id,
        agentId: row.agent_id,
        connectionId: row.connection_id,
        testVersionId: row.test_version_id,
        personaId: row.persona_id,
        personaName: row.persona_name,
        personaDescription: row.persona_description,
        repetition: row.repetition,
        startedAt: at,
      };
    });
  }

  /** Saves a running call's progress with its events; false when the call is no longer running (canceled). */
  progress(call: ClaimedCall, progress: CallProgress, events: readonly NewEvent[], at: string): boolean {
    const db = this.store.db;
    return this.store.immediate(() => {
      const updated = db
        .prepare(`UPDATE run_calls SET transcript = ?, tool_calls = ?, latency_p50_ms = ?, latency_p95_ms = ?, unmatched_tools = ? WHERE id = ? AND status = 'running'`)
        .run(...this.progressValues(progress), call.id);
      if (updated.changes === 0) return false;
      appendEvents(db, call.runId, events, at);
      return true;
    });
  }

  /**
   * Records a call's outcome with its events (grades, then `call.finished`)
   * and, when it was the run's last active call, finishes the run with
   * `run.finished`. False when the call is no longer running.
   */
  finish(call: ClaimedCall, outcome: CallOutcome, events: readonly NewEvent[], at: string): boolean {
    const db = this.store.db;
    return this.store.immediate(() => {
      const count = (v: BehaviorResult['verdict']) => outcome.behaviors.filter((b) => b.verdict === v).length;
      const updated = db
        .prepare(
          `UPDATE run_calls SET transcript = ?, tool_calls = ?, latency_p50_ms = ?, latency_p95_ms = ?, unmatched_tools = ?,
             status = ?, end_reason = ?, problem_code = ?, problem_message = ?, finished_at = ?, behaviors = ?, judge = ?,
             behaviors_passed = ?, behaviors_failed = ?, behaviors_error = ?
           WHERE id = ? AND status = 'running'`,
        )
        .run(
          ...this.progressValues(outcome),
          outcome.status,
          outcome.endReason,
          outcome.problem?.code ?? null,
          outcome.problem?.message ?? null,
          at,
          JSON.stringify(outcome.behaviors),
          outcome.judge ? JSON.stringify(outcome.judge) : null,
          count('passed'),
          count('failed'),
          count('error'),
          call.id,
        );
      if (updated.changes === 0) return false;
      appendEvents(db, call.runId, [...events, { type: 'call.finished', data: { call_id: call.id, status: outcome.status, end_reason: outcome.endReason, problem: outcome.problem } }], at);
      this.finishRunIfDone(db, call.runId, at);
      return true;
    });
  }

  /**
   * After a crash or a stop: every call left `running` becomes `error` with
   * `problem.code = interrupted` (and its `call.finished`), and every run
   * with no active call left is finished. Queued calls stay queued and run.
   * Returns the runs touched.
   */
  recoverInterrupted(at: string, message: string, onlyCallIds?: readonly string[]): string[] {
    const db = this.store.db;
    return this.store.immediate(() => {
      const filter = onlyCallIds ? ` AND id IN (${onlyCallIds.map(() => '?').join(', ') || "''"})` : '';
      const calls = db.prepare(`SELECT id, run_id FROM run_calls WHERE status = 'running'${filter} ORDER BY seq`).all(...(onlyCallIds ?? [])) as Array<{ id: string; run_id: string }>;
      const problem = { code: 'interrupted', message };
      const mark = db.prepare(`UPDATE run_calls SET status = 'error', end_reason = 'error', problem_code = ?, problem_message = ?, finished_at = ? WHERE id = ?`);
      for (const c of calls) {
        mark.run(problem.code, problem.message, at, c.id);
        appendEvents(db, c.run_id, [{ type: 'call.finished', data: { call_id: c.id, status: 'error', end_reason: 'error', problem } }], at);
      }
      const touched = new Set(calls.map((c) => c.run_id));
      if (!onlyCallIds) {
        const stale = db.prepare(`SELECT id FROM runs r WHERE status IN ('queued', 'running') AND NOT EXISTS (SELECT 1 FROM run_calls c WHERE c.run_id = r.id AND c.${ACTIVE})`).all() as Array<{ id: string }>;
        for (const r of stale) touched.add(r.id);
      }
      for (const runId of touched) this.finishRunIfDone(db, runId, at);
      return [...touched];
    });
  }

  private progressValues(p: CallProgress): [string, string, number | null, number | null, number] {
    return [JSON.stringify(p.transcript), JSON.stringify(p.toolCalls), p.latency?.p50 ?? null, p.latency?.p95 ?? null, p.toolCalls.filter((t) => t.outcome === 'unmatched').length];
  }

  private finishRunIfDone(db: SqliteDb, runId: string, at: string): void {
    const active = db.prepare(`SELECT 1 FROM run_calls WHERE run_id = ? AND ${ACTIVE} LIMIT 1`).get(runId);
    const run = db.prepare('SELECT status FROM runs WHERE id = ?').get(runId) as { status: RunStatus };
    if (active || (run.status !== 'queued' && run.status !== 'running')) return;
    const status = finalStatus(db, runId);
    db.prepare('UPDATE runs SET status = ?, finished_at = ?, started_at = coalesce(started_at, ?) WHERE id = ?').run(status, at, at, runId);
    appendEvents(db, runId, [{ type: 'run.finished', data: { status, summary: summaries(db, [runId]).get(runId)! } }], at);
  }
}
