import { type DuckDBConnection, LIST, VARCHAR, listValue } from '@duckdb/node-api';
import type { LookupScope } from '../http/principal.js';
import type { AnalyticsStore } from '../storage/duckdb/connection.js';
import type { PendingTrace } from './writer.js';

/** A stored span as read back: JSON columns parsed, timestamps exact. */
export interface StoredSpan {
  organizationId: string;
  projectId: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  kind: number;
  startNs: bigint;
  endNs: bigint;
  statusCode: number;
  statusMessage: string | null;
  traceState: string | null;
  attributes: Record<string, unknown>;
  resourceAttributes: Record<string, unknown>;
  scopeName: string | null;
  scopeVersion: string | null;
  events: Array<{ name: string; time_unix_nano: string; attributes: Record<string, unknown> }>;
  links: Array<{ trace_id: string; span_id: string; trace_state: string | null; attributes: Record<string, unknown> }>;
  sessionId: string | null;
}

/** A trace waiting for its conversation to be (re)derived. */
export interface PendingRow extends PendingTrace {
  organizationId: string;
}

/** Reads of the span store; the span writer is the only writer. */
export interface SpanRepository {
  /** The spans of a trace visible in the scope (its project, or its organization for org-wide credentials). */
  trace(scope: LookupScope, traceId: string): Promise<StoredSpan[]>;
  /** Spans of the given traces of one project. */
  spansOfTraces(projectId: string, traceIds: readonly string[]): Promise<StoredSpan[]>;
  /** For each trace, the session id named by one of its spans (earliest), or null. */
  sessionsOfTraces(projectId: string, traceIds: readonly string[]): Promise<Map<string, string | null>>;
  /** Every trace of the project with a span naming one of the sessions, by session. */
  tracesOfSessions(projectId: string, sessionIds: readonly string[]): Promise<Map<string, string[]>>;
  /** Traces whose conversation must be (re)derived, oldest first. */
  pending(limit: number): Promise<PendingRow[]>;
}

// Integer columns are read as bigints and formatted here: DuckDB's UHUGEINT-to-text cast costs ~0.1 ms a value.
const COLUMNS = `sc.organization_id, s.project_id, s.trace_id, s.span_id, s.parent_span_id, s.name, s.kind, s.start_ns, s.end_ns,
  s.status_code, s.attributes, s.detail, s.session_id, sc.resource_attributes, sc.scope_name, sc.scope_version`;
const FROM = 'spans s JOIN span_scopes sc ON sc.project_id = s.project_id AND sc.scope_id = s.scope_id';

type Row = Record<string, string | number | bigint | null>;

/**
 * Id lists travel as one typed LIST parameter joined by hash, not as an IN
 * list of parameters: DuckDB evaluates a long IN list as a chain of
 * comparisons on every row of freshly written (uncompressed) segments.
 */
const LIST_TYPES = [VARCHAR, LIST(VARCHAR)];
const asList = (items: readonly string[]) => listValue([...items]);

/** A stored integer id as lowercase hex of its byte length. */
const hex = (key: bigint, bytes: number) => key.toString(16).padStart(bytes * 2, '0');
/** A hex trace id as the decimal text of its stored key, for `::UHUGEINT` parameters. */
const traceKey = (traceId: string) => BigInt(`0x${traceId}`).toString();

interface Detail {
  status_message?: string;
  trace_state?: string;
  events?: StoredSpan['events'];
  links?: StoredSpan['links'];
}

function toSpan(r: Row): StoredSpan {
  const detail = (r.detail ? JSON.parse(r.detail as string) : {}) as Detail;
  return {
    organizationId: r.organization_id as string,
    projectId: r.project_id as string,
    traceId: hex(r.trace_id as bigint, 16),
    spanId: hex(r.span_id as bigint, 8),
    parentSpanId: r.parent_span_id === null ? null : hex(r.parent_span_id as bigint, 8),
    name: r.name as string,
    kind: Number(r.kind),
    startNs: r.start_ns as bigint,
    endNs: r.end_ns as bigint,
    statusCode: Number(r.status_code),
    statusMessage: detail.status_message ?? null,
    traceState: detail.trace_state ?? null,
    attributes: JSON.parse(r.attributes as string) as Record<string, unknown>,
    resourceAttributes: JSON.parse(r.resource_attributes as string) as Record<string, unknown>,
    scopeName: r.scope_name as string | null,
    scopeVersion: r.scope_version as string | null,
    events: detail.events ?? [],
    links: detail.links ?? [],
    sessionId: r.session_id as string | null,
  };
}

/** The span store in the analytics store (DuckDB), read on the shared connection. */
export class DuckdbSpanRepository implements SpanRepository {
  constructor(private readonly store: AnalyticsStore) {}

  private read(sql: string, params: unknown[], types?: unknown[]): Promise<Row[]> {
    return this.store.exclusive(async (c: DuckDBConnection) => (await c.runAndReadAll(sql, params as never, types as never)).getRowObjects() as Row[]);
  }

  async trace(scope: LookupScope, traceId: string): Promise<StoredSpan[]> {
    const params: unknown[] = [traceKey(traceId.toLowerCase()), scope.organizationId];
    let sql = `SELECT ${COLUMNS} FROM ${FROM} WHERE s.trace_id = $1::UHUGEINT AND sc.organization_id = $2`;
    if (scope.projectId) {
      params.push(scope.projectId);
      sql += ' AND s.project_id = $3';
    }
    return (await this.read(`${sql} ORDER BY s.start_ns, s.span_id`, params)).map(toSpan);
  }

  async spansOfTraces(projectId: string, traceIds: readonly string[]): Promise<StoredSpan[]> {
    if (traceIds.length === 0) return [];
    const rows = await this.read(
      `SELECT ${COLUMNS} FROM ${FROM} WHERE s.project_id = $1 AND s.trace_id IN (SELECT unnest($2)::UHUGEINT)`,
      [projectId, asList(traceIds.map(traceKey))],
      LIST_TYPES,
    );
    return rows.map(toSpan).sort((a, b) => (a.startNs < b.startNs ? -1 : a.startNs > b.startNs ? 1 : a.spanId < b.spanId ? -1 : 1));
  }

  async sessionsOfTraces(projectId: string, traceIds: readonly string[]): Promise<Map<string, string | null>> {
    const out = new Map<string, string | null>(traceIds.map((t) => [t, null]));
    if (traceIds.length === 0) return out;
    const rows = await this.read(
      `SELECT trace_id, arg_min(session_id, start_ns) AS session_id FROM spans
       WHERE project_id = $1 AND trace_id IN (SELECT unnest($2)::UHUGEINT) AND session_id IS NOT NULL GROUP BY trace_id`,
      [projectId, asList(traceIds.map(traceKey))],
      LIST_TYPES,
    );
    for (const r of rows) out.set(hex(r.trace_id as bigint, 16), r.session_id as string);
    return out;
  }

  async tracesOfSessions(projectId: string, sessionIds: readonly string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>(sessionIds.map((s) => [s, []]));
    if (sessionIds.length === 0) return out;
    const rows = await this.read(
      `SELECT DISTINCT session_id, trace_id FROM spans WHERE project_id = $1 AND session_id IN (SELECT unnest($2))`,
      [projectId, asList(sessionIds)],
      LIST_TYPES,
    );
    for (const r of rows) out.get(r.session_id as string)?.push(hex(r.trace_id as bigint, 16));
    return out;
  }

  async pending(limit: number): Promise<PendingRow[]> {
    const rows = await this.read(
      `SELECT organization_id, project_id, trace_id, max(seq) AS version FROM trace_pending
       GROUP BY organization_id, project_id, trace_id ORDER BY min(marked_at) LIMIT $1`,
      [limit],
    );
    return rows.map((r) => ({ organizationId: r.organization_id as string, projectId: r.project_id as string, traceId: hex(r.trace_id as bigint, 16), version: r.version as bigint }));
  }
}
