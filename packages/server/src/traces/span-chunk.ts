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

/**
 * Writes span rows into DuckDB data chunks a column at a time: each integer
 * column is one copy from the request's `SpanColumns` buffer (already in
 * vector layout), each nullable column one validity copy, the project and
 * receive time are constant vectors, and only strings are set row by row.
 * (Row-by-row appender calls cost several native calls per value; this
 * costs about one per string.)
 */
export class SpanChunkWriter {
  // Validity bits of one column of a chunk, as 32-bit words (DuckDB's 64-bit little-endian words, same bytes).
  private readonly validity = new Uint32Array(VECTOR_SIZE / 32);

  /** Writes rows [from, to) of `spans` (at most a vector's worth) into an empty chunk of `SPAN_COLUMN_TYPES`. */
  fill(chunk: duckdb.DataChunk, project: duckdb.Value, receivedAt: duckdb.Value, spans: SpanColumns, from: number, to: number): void {
    const rows = to - from;
    duckdb.data_chunk_set_size(chunk, rows);
    const vector = (column: number) => duckdb.data_chunk_get_vector(chunk, column);
    const at = columnOffsets(spans.capacity);
    const copy = (column: number, offset: number, width: number) => duckdb.copy_data_to_vector(vector(column), 0, spans.fixed, offset + from * width, rows * width);
    duckdb.vector_reference_value(vector(0), project);
    copy(1, at.trace, 16);
    copy(2, at.span, 8);
    copy(3, at.parent, 8);
    const parentNull = new Uint8Array(spans.fixed, at.parentNull + from, rows);
    const validity = this.validity;
    validity.fill(0xffffffff);
    for (let i = 0; i < rows; i++) if (parentNull[i] === 1) validity[i >>> 5]! &= ~(1 << (i & 31));
    this.setValidity(vector(3), rows);
    this.strings(vector(4), spans.names, from, rows, false);
    copy(5, at.kind, 1);
    copy(6, at.start, 8);
    copy(7, at.end, 8);
    copy(8, at.status, 1);
    this.strings(vector(9), spans.sessionIds, from, rows, true);
    copy(10, at.scope, 8);
    this.strings(vector(11), spans.attributes, from, rows, false);
    this.strings(vector(12), spans.details, from, rows, true);
    duckdb.vector_reference_value(vector(13), receivedAt);
  }

  /** Sets a VARCHAR column; in a nullable one, null entries become NULL (the validity is always written: chunks are reused). */
  private strings(vector: duckdb.Vector, values: readonly (string | null)[], from: number, rows: number, nullable: boolean): void {
    const validity = this.validity;
    validity.fill(0xffffffff);
    for (let i = 0; i < rows; i++) {
      const value = values[from + i];
      if (value == null) validity[i >>> 5]! &= ~(1 << (i & 31));
      else duckdb.vector_assign_string_element(vector, i, value);
    }
    if (nullable) this.setValidity(vector, rows);
  }

  /** Copies the validity bits (bit i of the little-endian words: row i is not NULL) into the vector. */
  private setValidity(vector: duckdb.Vector, rows: number): void {
    duckdb.vector_ensure_validity_writable(vector);
    duckdb.copy_data_to_vector_validity(vector, 0, this.validity.buffer, 0, Math.ceil(rows / 64) * 8);
  }
}
