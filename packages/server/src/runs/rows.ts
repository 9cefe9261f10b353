import type { CallStatus, EndReason, RunCallResult, RunListItem, RunStatus, RunSummary } from '@svc/contract';
import type { SqliteDb } from '../storage/sqlite/connection.js';

export interface RunRow {
  seq: number;
  id: string;
  organization_id: string;
  project_id: string;
  agent_id: string;
  connection_id: string;
  test_versions: string;
  repeat: number;
  concurrency: number;
  status: RunStatus;
  idempotency_key: string | null;
  request_hash: string;
  created_by_user_id: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  last_event_seq: number;
}

export interface CallRow {
  id: string;
  run_id: string;
  organization_id: string;
  position: number;
  test_id: string;
  test_version_id: string;
  persona_id: string;
  persona_name: string;
  persona_description: string | null;
  repetition: number;
  status: CallStatus;
  end_reason: EndReason | null;
  problem_code: string | null;
  problem_message: string | null;
  started_at: string | null;
  finished_at: string | null;
  transcript: string;
  tool_calls: string;
  behaviors: string;
  judge: string | null;
  latency_p50_ms: number | null;
  latency_p95_ms: number | null;
  behaviors_passed: number;
  behaviors_failed: number;
  behaviors_error: number;
  unmatched_tools: number;
}

/** A call row joined with its version's number and test's current name and version. */
export type CallWithTestRow = CallRow & { version: number; test_name: string; current_version_id: string };

export const TERMINAL_RUN: readonly RunStatus[] = ['passed', 'failed', 'error', 'canceled'];
/** Whether a run status is final. */
export const isTerminal = (status: RunStatus) => TERMINAL_RUN.includes(status);

/** Summaries of runs, from aggregates over their calls (one query for a page of runs). */
export function summaries(db: SqliteDb, runIds: readonly string[]): Map<string, RunSummary> {
  const out = new Map<string, RunSummary>();
  for (const id of runIds) {
    out.set(id, {
      calls: { total: 0, queued: 0, running: 0, passed: 0, failed: 0, error: 0, canceled: 0 },
      behaviors: { passed: 0, failed: 0, error: 0 },
      unmatched_tools: 0,
    });
  }
  if (runIds.length === 0) return out;
  const rows = db
    .prepare(
      `SELECT run_id, status, count(*) AS n, sum(behaviors_passed) AS bp, sum(behaviors_failed) AS bf, sum(behaviors_error) AS be, sum(unmatched_tools) AS ut
       FROM run_calls WHERE run_id IN (${runIds.map(() => '?').join(', ')}) GROUP BY run_id, status`,
    )
    .all(...runIds) as Array<{ run_id: string; status: CallStatus; n: number; bp: number; bf: number; be: number; ut: number }>;
  for (const r of rows) {
    const s = out.get(r.run_id)!;
    s.calls.total += r.n;
    s.calls[r.status] += r.n;
    s.behaviors.passed += r.bp;
    s.behaviors.failed += r.bf;
    s.behaviors.error += r.be;
    s.unmatched_tools += r.ut;
  }
  return out;
}

/** A run row and its summary as a list item. */
export function toRunListItem(r: RunRow, summary: RunSummary): RunListItem {
  return {
    id: r.id,
    project_id: r.project_id,
    status: r.status,
    test_versions: JSON.parse(r.test_versions) as string[],
    agent_id: r.agent_id,
    connection_id: r.connection_id,
    repeat: r.repeat,
    concurrency: r.concurrency,
    created_at: r.created_at,
    started_at: r.started_at,
    finished_at: r.finished_at,
    summary,
  };
}

const ms = (from: string | null, to: string | null) => (from && to ? Math.max(0, Date.parse(to) - Date.parse(from)) : null);

/** A call row as its result. */
export function toCallResult(c: CallWithTestRow): RunCallResult {
  const transcript = JSON.parse(c.transcript) as RunCallResult['transcript'];
  const toolCalls = JSON.parse(c.tool_calls) as RunCallResult['tool_calls'];
  return {
    id: c.id,
    test_id: c.test_id,
    test_name: c.test_name,
    test_version_id: c.test_version_id,
    version: c.version,
    superseded: c.current_version_id !== c.test_version_id,
    persona_id: c.persona_id,
    persona_name: c.persona_name,
    repetition: c.repetition,
    status: c.status,
    end_reason: c.end_reason,
    problem: c.problem_code ? { code: c.problem_code, message: c.problem_message ?? '' } : null,
    started_at: c.started_at,
    finished_at: c.finished_at,
    transcript,
    tool_calls: toolCalls,
    unmatched_tools: [...new Set(toolCalls.filter((t) => t.outcome === 'unmatched').map((t) => t.name))],
    behaviors: JSON.parse(c.behaviors) as RunCallResult['behaviors'],
    judge: c.judge ? (JSON.parse(c.judge) as RunCallResult['judge']) : null,
    metrics: {
      turns: transcript.filter((e) => e.role !== 'tool').length,
      agent_latency_ms: c.latency_p50_ms !== null && c.latency_p95_ms !== null ? { p50: c.latency_p50_ms, p95: c.latency_p95_ms } : null,
      tool_calls: toolCalls.length,
      unmatched_tools: c.unmatched_tools,
      duration_ms: ms(c.started_at, c.finished_at),
    },
  };
}

/** Every call of a run with its test's name and current version, in position order. */
export function callsOfRun(db: SqliteDb, runId: string): CallWithTestRow[] {
  return db
    .prepare(
      `SELECT c.*, v.version AS version, t.name AS test_name, t.current_version_id AS current_version_id
       FROM run_calls c JOIN test_versions v ON v.id = c.test_version_id JOIN tests t ON t.id = c.test_id
       WHERE c.run_id = ? ORDER BY c.position`,
    )
    .all(runId) as CallWithTestRow[];
}
