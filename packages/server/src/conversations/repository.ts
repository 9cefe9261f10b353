import type { DuckDBConnection } from '@duckdb/node-api';
import type { ConversationDetail, ConversationSource, ConversationSummary, ConversationToolCall, ConversationTurn } from '@svc/contract';
import { AppError } from '../http/errors.js';
import type { LookupScope } from '../http/principal.js';
import { newId, nowIso } from '../shared/ids.js';
import type { AnalyticsStore } from '../storage/duckdb/connection.js';
import type { Page } from '../storage/sqlite/keyset.js';
import { summarizeLatency } from './derive.js';

/** A production conversation as a source (importer, span grouping) hands it over. */
export interface ConversationInput {
  organizationId: string;
  projectId: string;
  source: ConversationSource;
  externalId: string;
  agentId: string | null;
  platformAgentId: string | null;
  startedAt: string;
  endedAt: string | null;
  durationMs: number | null;
  terminationReason: string | null;
  traceId: string | null;
  turns: ConversationTurn[];
  toolCalls: ConversationToolCall[];
  metadata: Record<string, unknown>;
}

export interface ConversationFilter {
  projectId: string;
  organizationId: string;
  /** An svc agent id or the platform's agent id. */
  agentId?: string | undefined;
  source?: ConversationSource | undefined;
  startedAfter?: string | undefined;
  startedBefore?: string | undefined;
}

export interface ConversationRepository {
  /** Writes the conversation unless (project, source, external_id) exists: `written` or `already`. */
  insertOnce(input: ConversationInput): Promise<{ id: string; write: 'written' | 'already' }>;
  /** `insertOnce` for several conversations in one transaction (one commit), results in input order. */
  insertManyOnce(inputs: readonly ConversationInput[]): Promise<Array<{ id: string; write: 'written' | 'already' }>>;
  /** Writes or replaces the content of (project, source, external_id), keeping its id and created_at. */
  upsert(input: ConversationInput): Promise<{ id: string; created: boolean }>;
  list(filter: ConversationFilter, page: { afterId?: string | undefined; limit: number }): Promise<Page<ConversationSummary>>;
  get(scope: LookupScope, id: string): Promise<ConversationDetail | null>;
  /** Deletes the conversations (project, source, external_id) that exist (superseded stand-ins); returns how many. */
  remove(projectId: string, source: ConversationSource, externalIds: readonly string[]): Promise<number>;
  /** The platform_b conversation that holds spans of the trace, if derived yet. */
  findIdByTrace(projectId: string, traceId: string): Promise<string | null>;
}

const TS = (column: string) => `strftime(${column}, '%Y-%m-%dT%H:%M:%S.%gZ') AS ${column}`;
const SUMMARY_COLUMNS = [
  'id', 'project_id', 'source', 'external_id', 'agent_id', 'platform_agent_id', TS('started_at'), TS('ended_at'), 'duration_ms',
  'termination_reason', 'turn_count', 'tool_call_count', 'latency_agent_turns', 'latency_p50_ms', 'latency_p95_ms', 'latency_max_ms',
  'trace_id', TS('created_at'), TS('updated_at'),
].join(', ');

type Row = Record<string, string | number | null>;

function toSummary(r: Row): ConversationSummary {
  return {
    id: r.id as string,
    project_id: r.project_id as string,
    source: r.source as ConversationSource,
    external_id: r.external_id as string,
    agent_id: r.agent_id as string | null,
    platform_agent_id: r.platform_agent_id as string | null,
    started_at: r.started_at as string,
    ended_at: r.ended_at as string | null,
    duration_ms: r.duration_ms as number | null,
    termination_reason: r.termination_reason as string | null,
    turn_count: Number(r.turn_count),
    tool_call_count: Number(r.tool_call_count),
    latency: {
      agent_turns: Number(r.latency_agent_turns),
      p50_ms: r.latency_p50_ms as number | null,
      p95_ms: r.latency_p95_ms as number | null,
      max_ms: r.latency_max_ms as number | null,
    },
    trace_id: r.trace_id as string | null,
    created_at: r.created_at as string,
    updated_at: r.updated_at as string,
  };
}

function values(id: string, c: ConversationInput, at: string): unknown[] {
  const latency = summarizeLatency(c.turns);
  return [
    id, c.organizationId, c.projectId, c.source, c.externalId, c.agentId, c.platformAgentId, c.startedAt, c.endedAt, c.durationMs,
    c.terminationReason, c.turns.filter((t) => t.role !== 'tool').length, c.toolCalls.length, latency.agent_turns, latency.p50_ms,
    latency.p95_ms, latency.max_ms, c.traceId, JSON.stringify(c.turns), JSON.stringify(c.toolCalls), JSON.stringify(c.metadata), at, at,
  ];
}

const INSERT = `INSERT INTO conversations VALUES ($1, $2, $3, $4, $5, $6, $7, $8::TIMESTAMP, $9::TIMESTAMP, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22::TIMESTAMP, $23::TIMESTAMP)`;

/** Production conversations in the analytics store (DuckDB). */
export class DuckdbConversationRepository implements ConversationRepository {
  constructor(private readonly store: AnalyticsStore) {}

  private read(sql: string, params: unknown[]): Promise<Row[]> {
    return this.store.exclusive(async (c: DuckDBConnection) => (await c.runAndReadAll(sql, params as never)).getRowObjectsJson() as Row[]);
  }

  async insertOnce(input: ConversationInput): Promise<{ id: string; write: 'written' | 'already' }> {
    const rows = await this.read(`${INSERT} ON CONFLICT DO NOTHING RETURNING id`, values(newId('cnv_'), input, nowIso()));
    if (rows.length > 0) return { id: rows[0]!.id as string, write: 'written' };
    const existing = await this.read('SELECT id FROM conversations WHERE project_id = $1 AND source = $2 AND external_id = $3', [input.projectId, input.source, input.externalId]);
    return { id: existing[0]!.id as string, write: 'already' };
  }

  async insertManyOnce(inputs: readonly ConversationInput[]): Promise<Array<{ id: string; write: 'written' | 'already' }>> {
    if (inputs.length === 0) return [];
    // One multi-row statement: DuckDB's cost is per statement and per commit, not per row.
    const key = (c: { projectId: string; source: string; externalId: string }) => `${c.projectId}\u0000${c.source}\u0000${c.externalId}`;
    const unique = [...new Map(inputs.map((c) => [key(c), c])).values()];
    const at = nowIso();
    const params: unknown[] = [];
    const tuples = unique.map((c) => {
      const row = values(newId('cnv_'), c, at);
      const base = params.length;
      params.push(...row);
      const casts: Record<number, string> = { 8: '::TIMESTAMP', 9: '::TIMESTAMP', 22: '::TIMESTAMP', 23: '::TIMESTAMP' };
      return `(${row.map((_, i) => `$${base + i + 1}${casts[i + 1] ?? ''}`).join(', ')})`;
    });
    return this.store.exclusive(async (c: DuckDBConnection) => {
      const read = async (sql: string, p: unknown[]) => (await c.runAndReadAll(sql, p as never)).getRowObjectsJson() as Row[];
      const written = await read(`INSERT INTO conversations VALUES ${tuples.join(', ')} ON CONFLICT DO NOTHING RETURNING id, project_id, source, external_id`, params);
      const ids = new Map<string, { id: string; write: 'written' | 'already' }>();
      for (const r of written) ids.set(key({ projectId: r.project_id as string, source: r.source as string, externalId: r.external_id as string }), { id: r.id as string, write: 'written' });
      const missing = unique.filter((u) => !ids.has(key(u)));
      for (const m of missing) {
        const rows = await read('SELECT id FROM conversations WHERE project_id = $1 AND source = $2 AND external_id = $3', [m.projectId, m.source, m.externalId]);
        ids.set(key(m), { id: rows[0]!.id as string, write: 'already' });
      }
      const seen = new Set<string>();
      return inputs.map((input) => {
        const k = key(input);
        const found = ids.get(k)!;
        const result = seen.has(k) ? { id: found.id, write: 'already' as const } : found;
        seen.add(k);
        return result;
      });
    });
  }

  async upsert(input: ConversationInput): Promise<{ id: string; created: boolean }> {
    const id = newId('cnv_');
    const rows = await this.read(
      `${INSERT} ON CONFLICT (project_id, source, external_id) DO UPDATE SET
        agent_id = excluded.agent_id, platform_agent_id = excluded.platform_agent_id, started_at = excluded.started_at,
        ended_at = excluded.ended_at, duration_ms = excluded.duration_ms, termination_reason = excluded.termination_reason,
        turn_count = excluded.turn_count, tool_call_count = excluded.tool_call_count, latency_agent_turns = excluded.latency_agent_turns,
        latency_p50_ms = excluded.latency_p50_ms, latency_p95_ms = excluded.latency_p95_ms, latency_max_ms = excluded.latency_max_ms,
        trace_id = excluded.trace_id, turns = excluded.turns, tool_calls = excluded.tool_calls, metadata = excluded.metadata,
        updated_at = excluded.updated_at
       RETURNING id`,
      values(id, input, nowIso()),
    );
    const stored = rows[0]!.id as string;
    return { id: stored, created: stored === id };
  }

  async list(f: ConversationFilter, page: { afterId?: string | undefined; limit: number }): Promise<Page<ConversationSummary>> {
    const where = ['organization_id = $1', 'project_id = $2'];
    const params: unknown[] = [f.organizationId, f.projectId];
    const add = (sql: (n: number) => string, value: unknown) => {
      params.push(value);
      where.push(sql(params.length));
    };
    if (f.agentId) add((n) => `(agent_id = $${n} OR platform_agent_id = $${n})`, f.agentId);
    if (f.source) add((n) => `source = $${n}`, f.source);
    if (f.startedAfter) add((n) => `started_at >= $${n}::TIMESTAMP`, f.startedAfter);
    if (f.startedBefore) add((n) => `started_at < $${n}::TIMESTAMP`, f.startedBefore);
    if (page.afterId !== undefined) {
      const cursor = await this.read(`SELECT id FROM conversations WHERE id = $1 AND organization_id = $2 AND project_id = $3`, [page.afterId, f.organizationId, f.projectId]);
      if (cursor.length === 0) throw new AppError('invalid_request', 'The cursor does not name an item of this list.', { cursor: page.afterId });
      add((n) => `(started_at, id) < (SELECT (started_at, id) FROM conversations WHERE id = $${n})`, page.afterId);
    }
    params.push(page.limit + 1);
    const rows = await this.read(`SELECT ${SUMMARY_COLUMNS} FROM conversations WHERE ${where.join(' AND ')} ORDER BY started_at DESC, id DESC LIMIT $${params.length}`, params);
    const more = rows.length > page.limit;
    const items = (more ? rows.slice(0, page.limit) : rows).map(toSummary);
    return { items, next: more ? items[items.length - 1]!.id : null };
  }

  async get(scope: LookupScope, id: string): Promise<ConversationDetail | null> {
    const params: unknown[] = [id, scope.organizationId];
    let sql = `SELECT ${SUMMARY_COLUMNS}, turns, tool_calls, metadata FROM conversations WHERE id = $1 AND organization_id = $2`;
    if (scope.projectId) {
      params.push(scope.projectId);
      sql += ' AND project_id = $3';
    }
    const rows = await this.read(sql, params);
    const row = rows[0];
    if (!row) return null;
    return {
      ...toSummary(row),
      turns: JSON.parse(row.turns as string) as ConversationTurn[],
      tool_calls: JSON.parse(row.tool_calls as string) as ConversationToolCall[],
      metadata: JSON.parse(row.metadata as string) as Record<string, unknown>,
    };
  }

  async remove(projectId: string, source: ConversationSource, externalIds: readonly string[]): Promise<number> {
    if (externalIds.length === 0) return 0;
    const list = externalIds.map((_, i) => `$${i + 3}`).join(', ');
    const rows = await this.read(`DELETE FROM conversations WHERE project_id = $1 AND source = $2 AND external_id IN (${list}) RETURNING id`, [projectId, source, ...externalIds]);
    return rows.length;
  }

  async findIdByTrace(projectId: string, traceId: string): Promise<string | null> {
    const rows = await this.read(
      `SELECT id FROM conversations WHERE project_id = $1 AND source = 'platform_b' AND (trace_id = $2 OR external_id = $2 OR contains(metadata, $2)) ORDER BY updated_at DESC LIMIT 1`,
      [projectId, traceId],
    );
    return (rows[0]?.id as string | undefined) ?? null;
  }
}
