import os from 'node:os';
import duckdb from '@duckdb/node-bindings';
import { type DuckDBType, TIMESTAMP, UBIGINT, UHUGEINT, UTINYINT, VARCHAR } from '@duckdb/node-api';
import { type SpanColumns, columnOffsets } from '../otlp/columns.js';

/** The columns of `SPAN_COLUMNS` with their DuckDB types, in table order. */
export const SPAN_COLUMN_TYPES: ReadonlyArray<readonly [string, DuckDBType]> = [
  ['project_id', VARCHAR], ['trace_id', UHUGEINT], ['span_id', UBIGINT], ['parent_span_id', UBIGINT], ['name', VARCHAR], ['kind', UTINYINT],
  ['start_ns', UBIGINT], ['end_ns', UBIGINT], ['status_code', UTINYINT], ['session_id', VARCHAR], ['scope_id', UBIGINT], ['attributes', VARCHAR],
  ['detail', VARCHAR], ['received_at', TIMESTAMP],
];
const VECTOR_SIZE = duckdb.vector_size();
// The columns' integer buffers are little-endian; DuckDB's vectors are in the machine's order.
if (os.endianness() !== 'LE') throw new Error('span ingest needs a little-endian machine');

/** Rows [from, to) of one request's columns. */
export interface SpanSlice {
  spans: SpanColumns;
  from: number;
  to: number;
}

/**
 * Writes span rows into DuckDB data chunks a column at a time: each integer
 * column is one copy per request from its `SpanColumns` buffer (already in
 * vector layout), each nullable column one validity copy per chunk, the
 * project and receive time are constant vectors, and only strings are set
 * row by row. (Row-by-row appender calls cost several native calls per
 * value; this costs about one per string.)
 */
export class SpanChunkWriter {
  // Validity bits of the nullable columns (parent, session, detail) of a chunk, as 32-bit words:
  // DuckDB's 64-bit little-endian validity words, same bytes.
  private readonly validity = [3, 9, 12].map((column) => ({ column, bits: new Uint32Array(VECTOR_SIZE / 32) }));

  /**
   * Writes the slices (one project, at most a vector's worth of rows in all)
   * into an empty chunk of `SPAN_COLUMN_TYPES`; returns the row count.
   */
  fill(chunk: duckdb.DataChunk, project: duckdb.Value, receivedAt: duckdb.Value, slices: readonly SpanSlice[]): number {
    const rows = slices.reduce((n, s) => n + s.to - s.from, 0);
    if (rows > VECTOR_SIZE) throw new Error(`a chunk holds at most ${VECTOR_SIZE} rows`);
    duckdb.data_chunk_set_size(chunk, rows);
    const vectors = SPAN_COLUMN_TYPES.map((_, column) => duckdb.data_chunk_get_vector(chunk, column));
    for (const v of this.validity) v.bits.fill(0xffffffff);
    const [parents, sessions, details] = this.validity.map((v) => v.bits) as [Uint32Array, Uint32Array, Uint32Array];
    let row = 0;
    for (const { spans, from, to } of slices) {
      const n = to - from;
      const at = columnOffsets(spans.capacity);
      const copy = (column: number, offset: number, width: number) =>
        duckdb.copy_data_to_vector(vectors[column]!, row * width, spans.fixed, offset + from * width, n * width);
      copy(1, at.trace, 16);
      copy(2, at.span, 8);
      copy(3, at.parent, 8);
      copy(5, at.kind, 1);
      copy(6, at.start, 8);
      copy(7, at.end, 8);
      copy(8, at.status, 1);
      copy(10, at.scope, 8);
      const parentNull = new Uint8Array(spans.fixed, at.parentNull + from, n);
      for (let i = 0; i < n; i++) if (parentNull[i] === 1) clear(parents, row + i);
      strings(vectors[4]!, spans.names, from, n, row, null);
      strings(vectors[9]!, spans.sessionIds, from, n, row, sessions);
      strings(vectors[11]!, spans.attributes, from, n, row, null);
      strings(vectors[12]!, spans.details, from, n, row, details);
      row += n;
    }
    duckdb.vector_reference_value(vectors[0]!, project);
    duckdb.vector_reference_value(vectors[13]!, receivedAt);
    // The validity is always written: DuckDB may hand over the same output chunk again.
    for (const { column, bits } of this.validity) {
      duckdb.vector_ensure_validity_writable(vectors[column]!);
      duckdb.copy_data_to_vector_validity(vectors[column]!, 0, bits.buffer, 0, Math.ceil(rows / 64) * 8);
    }
    return rows;
  }
}

function clear(bits: Uint32Array, row: number): void {
  bits[row >>> 5]! &= ~(1 << (row & 31));
}

/** Sets a VARCHAR column's rows from `at`; null entries are marked in `nulls` (a column that cannot be NULL passes none). */
function strings(vector: duckdb.Vector, values: readonly (string | null)[], from: number, n: number, at: number, nulls: Uint32Array | null): void {
  for (let i = 0; i < n; i++) {
    const value = values[from + i];
    if (value != null) duckdb.vector_assign_string_element(vector, at + i, value);
    else if (nulls) clear(nulls, at + i);
  }
}
