import duckdb from '@duckdb/node-bindings';
import {
  BIGINT, type DuckDBConnection, type DuckDBDataChunk, DuckDBTableFunction, type DuckDBType, type DuckDBValue, UBIGINT, UHUGEINT, VARCHAR,
} from '@duckdb/node-api';
import type { ScopeRecord, SpanColumns } from '../otlp/columns.js';
import { SPAN_COLUMN_TYPES, SpanChunkWriter, type SpanSlice } from './span-chunk.js';

/** What one commit writes, read by the commit's SQL through the `*_source(id)` table functions. */
export interface CommitRows {
  /** Span batches, each in one project. */
  spans: Array<{ projectId: string; columns: SpanColumns }>;
  receivedMicros: bigint;
  /** Derivation markers: one per trace the commit touches. */
  pending: Array<{ organizationId: string; projectId: string; traceKey: bigint }>;
  /** Markers the deriver is done with: rows of the trace up to `version`. */
  clears: Array<{ projectId: string; traceKey: bigint; version: bigint }>;
  /** Resources and scopes not known to be stored yet. */
  scopes: Array<{ organizationId: string; projectId: string; scope: ScopeRecord }>;
}

// Process-wide, so whichever connection's registration DuckDB resolves a name to finds every commit's rows.
const commits = new Map<number, CommitRows>();
let nextId = 1;

// A DuckDB thread reading a commit waits for the event loop to run the table function. A process that
// exits meanwhile (an uncaught exception) would wait forever in exit(), which joins that thread; end it
// at once instead. The commit was not acknowledged, so this is a crash like any other for durability.
process.on('exit', () => {
  if (commits.size > 0) process.kill(process.pid, 'SIGKILL');
});

/** Makes `rows` readable as `span_source(id)` and the like until `release(id)`. */
export function publish(rows: CommitRows): number {
  const id = nextId++;
  commits.set(id, rows);
  return id;
}

export function release(id: number): void {
  commits.delete(id);
}

function rowsOf(id: number): CommitRows {
  const rows = commits.get(id);
  if (!rows) throw new Error(`no commit ${id} is being written`);
  return rows;
}

type Columns = ReadonlyArray<readonly [string, DuckDBType]>;

/** A table function over one list of a commit, written a vector's worth of rows per call. */
function source(name: string, columns: Columns, write: (rows: CommitRows, state: { at: number; row: number }, out: DuckDBDataChunk) => number) {
  return DuckDBTableFunction.create({
    name,
    parameterTypes: [BIGINT],
    bindFunction: (info) => {
      for (const [column, type] of columns) info.addResultColumn(column, type);
      info.setBindData({ id: Number(info.getParameter(0) as bigint) });
    },
    initFunction: (info) => {
      info.setMaxThreads(1);
      info.setInitData({ at: 0, row: 0 });
    },
    mainFunction: (info, out) => {
      const rows = rowsOf((info.bindData as { id: number }).id);
      const written = write(rows, info.initData as { at: number; row: number }, out);
      if (written === 0) out.rowCount = 0;
    },
  });
}

const VECTOR_SIZE = duckdb.vector_size();

/** Small lists (markers, scopes) are written value by value: a few rows per trace or request. */
function small<T>(list: (rows: CommitRows) => T[], values: (item: T) => DuckDBValue[]) {
  return (rows: CommitRows, state: { at: number }, out: DuckDBDataChunk): number => {
    const items = list(rows).slice(state.at, state.at + VECTOR_SIZE);
    if (items.length === 0) return 0;
    state.at += items.length;
    out.rowCount = items.length;
    out.setRows(items.map(values));
    return items.length;
  };
}

const chunks = new SpanChunkWriter();

const functions = [
  source('span_source', SPAN_COLUMN_TYPES, (rows, state, out) => {
    // state.at: the batch; state.row: the next row in it. A chunk takes rows of consecutive batches of one project.
    const slices: SpanSlice[] = [];
    let room = VECTOR_SIZE;
    let projectId: string | undefined;
    while (room > 0 && state.at < rows.spans.length) {
      const batch = rows.spans[state.at]!;
      if (state.row >= batch.columns.count) {
        state.at++;
        state.row = 0;
        continue;
      }
      if (projectId !== undefined && batch.projectId !== projectId) break;
      projectId = batch.projectId;
      const to = Math.min(batch.columns.count, state.row + room);
      slices.push({ spans: batch.columns, from: state.row, to });
      room -= to - state.row;
      state.row = to;
    }
    if (projectId === undefined) return 0;
    return chunks.fill(out.chunk, duckdb.create_varchar(projectId), duckdb.create_timestamp({ micros: rows.receivedMicros }), slices);
  }),
  source('pending_source', [['organization_id', VARCHAR], ['project_id', VARCHAR], ['trace_id', UHUGEINT]],
    small((r) => r.pending, (p) => [p.organizationId, p.projectId, p.traceKey])),
  source('clear_source', [['project_id', VARCHAR], ['trace_id', UHUGEINT], ['seq', BIGINT]],
    small((r) => r.clears, (c) => [c.projectId, c.traceKey, c.version])),
  source('scope_source', [
    ['organization_id', VARCHAR], ['project_id', VARCHAR], ['scope_id', UBIGINT], ['resource_attributes', VARCHAR],
    ['scope_name', VARCHAR], ['scope_version', VARCHAR], ['scope_attributes', VARCHAR],
  ], small((r) => r.scopes, (s) => [s.organizationId, s.projectId, s.scope.scopeId, s.scope.resourceAttributes, s.scope.scopeName, s.scope.scopeVersion, s.scope.scopeAttributes])),
];

/**
 * Registers `span_source(id)`, `pending_source(id)`, `clear_source(id)` and
 * `scope_source(id)` on a writer connection: table functions through which
 * a commit's SQL reads the rows `publish` made available. DuckDB calls them
 * from the thread running the statement; each call is served on the event
 * loop (the bindings' thread-safe call), which fills one chunk while that
 * thread waits. So a commit's rows go from request columns into the insert
 * with one copy, and no DuckDB call ever blocks the event loop.
 */
export function registerCommitSources(connection: DuckDBConnection): void {
  for (const fn of functions) connection.registerTableFunction(fn);
}
