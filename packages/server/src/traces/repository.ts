import type { DuckDBConnection } from '@duckdb/node-api';
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

const COLUMNS = `organization_id, project_id, trace_id, span_id, parent_span_id, name, kind, start_ns::VARCHAR AS start_ns, end_ns::VARCHAR AS end_ns,
  status_code, status_message, trace_state, attributes, resource_attributes, scope_name, scope_version, events, links, session_id`;

type Row = Record<string, string | number | null>;

const CHUNK = 500;
/** `$2, $3, ...` for an IN list after the project parameter. */
const list = (n: number) => Array.from({ length: n }, (_, i) => `$${i + 2}`).join(', ');
function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

function toSpan(r: Row): StoredSpan {
  return {
    organizationId: r.organization_id as string,
    projectId: r.project_id as string,
    traceId: r.trace_id as string,
    spanId: r.span_id as string,
    parentSpanId: r.parent_span_id as string | null,
    name: r.name as string,
    kind: Number(r.kind),
    startNs: BigInt(r.start_ns as string),
    endNs: BigInt(r.end_ns as string),
    statusCode: Number(r.status_code),
    statusMessage: r.status_message as string | null,
    traceState: r.trace_state as string | null,
    attributes: JSON.parse(r.attributes as string) as Record<string, unknown>,
    resourceAttributes: JSON.parse(r.resource_attributes as string) as Record<string, unknown>,
    scopeName: r.scope_name as string | null,
    scopeVersion: r.scope_version as string | null,
    events: JSON.parse(r.events as string) as StoredSpan['events'],
    links: JSON.parse(r.links as string) as StoredSpan['links'],
    sessionId: r.session_id as string | null,
  };
}

/** The span store in the analytics store (DuckDB), read on the shared connection. */
export class DuckdbSpanRepository implements SpanRepository {
  constructor(private readonly store: AnalyticsStore) {}

  private read(sql: string, params: unknown[]): Promise<Row[]> {
    return this.store.exclusive(async (c: DuckDBConnection) => (await c.runAndReadAll(sql, params as never)).getRowObjectsJson() as Row[]);
  }

  async trace(scope: LookupScope, traceId: string): Promise<StoredSpan[]> {
    const params: unknown[] = [traceId.toLowerCase(), scope.organizationId];
    let sql = `SELECT ${COLUMNS} FROM spans WHERE trace_id = $1 AND organization_id = $2`;
    if (scope.projectId) {
      params.push(scope.projectId);
      sql += ' AND project_id = $3';
    }
    return (await this.read(`${sql} ORDER BY start_ns, span_id`, params)).map(toSpan);
  }

  async spansOfTraces(projectId: string, traceIds: readonly string[]): Promise<StoredSpan[]> {
    const rows: Row[] = [];
    for (const chunk of chunks(traceIds)) {
      rows.push(...(await this.read(`SELECT ${COLUMNS} FROM spans WHERE project_id = $1 AND trace_id IN (${list(chunk.length)})`, [projectId, ...chunk])));
    }
    return rows.map(toSpan).sort((a, b) => (a.startNs < b.startNs ? -1 : a.startNs > b.startNs ? 1 : a.spanId < b.spanId ? -1 : 1));
  }

  async sessionsOfTraces(projectId: string, traceIds: readonly string[]): Promise<Map<string, string | null>> {
    const out = new Map<string, string | null>(traceIds.map((t) => [t, null]));
    for (const chunk of chunks(traceIds)) {
      const rows = await this.read(
        `SELECT trace_id, arg_min(session_id, start_ns) AS session_id FROM spans
         WHERE project_id = $1 AND trace_id IN (${list(chunk.length)}) AND session_id IS NOT NULL GROUP BY trace_id`,
        [projectId, ...chunk],
      );
      for (const r of rows) out.set(r.trace_id as string, r.session_id as string);
    }
    return out;
  }

  async tracesOfSessions(projectId: string, sessionIds: readonly string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>(sessionIds.map((s) => [s, []]));
    for (const chunk of chunks(sessionIds)) {
      const rows = await this.read(
        `SELECT DISTINCT session_id, trace_id FROM spans WHERE project_id = $1 AND session_id IN (${list(chunk.length)})`,
        [projectId, ...chunk],
      );
      for (const r of rows) out.get(r.session_id as string)?.push(r.trace_id as string);
    }
    return out;
  }

  async pending(limit: number): Promise<PendingRow[]> {
    const rows = await this.read(
      'SELECT organization_id, project_id, trace_id, version::VARCHAR AS version FROM trace_pending ORDER BY updated_at LIMIT $1',
      [limit],
    );
    return rows.map((r) => ({ organizationId: r.organization_id as string, projectId: r.project_id as string, traceId: r.trace_id as string, version: BigInt(r.version as string) }));
  }
}
