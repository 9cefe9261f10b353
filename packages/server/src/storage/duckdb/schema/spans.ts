import type { DuckdbMigration } from '../migrations.js';

/** The columns of the first span table (migration 0002, replaced by 0003). */
const FIRST_SPAN_COLUMNS = `
  organization_id VARCHAR NOT NULL,
  project_id VARCHAR NOT NULL,
  trace_id VARCHAR NOT NULL,
  span_id VARCHAR NOT NULL,
  parent_span_id VARCHAR,
  name VARCHAR NOT NULL,
  kind UTINYINT NOT NULL,
  start_ns UBIGINT NOT NULL,
  end_ns UBIGINT NOT NULL,
  status_code UTINYINT NOT NULL,
  status_message VARCHAR,
  trace_state VARCHAR,
  flags UINTEGER NOT NULL,
  attributes VARCHAR NOT NULL,
  resource_attributes VARCHAR NOT NULL,
  scope_name VARCHAR,
  scope_version VARCHAR,
  scope_attributes VARCHAR NOT NULL,
  events VARCHAR NOT NULL,
  links VARCHAR NOT NULL,
  dropped_attributes_count UINTEGER NOT NULL,
  dropped_events_count UINTEGER NOT NULL,
  dropped_links_count UINTEGER NOT NULL,
  session_id VARCHAR,
  received_at TIMESTAMP NOT NULL`;

/**
 * Spans received on `/v1/traces`, one row per (project, trace id, span id):
 * a re-sent batch never stores a span twice. Ids are lowercase hex;
 * timestamps are exact nanoseconds (UBIGINT); attributes, events and links
 * are JSON text. `trace_pending` lists traces whose conversation must be
 * (re)derived; it is written in the same transaction as the spans, so a
 * crash after an acknowledgement never loses a derivation.
 */
export const spansSchema: DuckdbMigration = {
  id: '0002_spans',
  statements: [
    `CREATE TABLE spans (${FIRST_SPAN_COLUMNS}, PRIMARY KEY (project_id, trace_id, span_id))`,
    `CREATE TABLE trace_pending (
      organization_id VARCHAR NOT NULL,
      project_id VARCHAR NOT NULL,
      trace_id VARCHAR NOT NULL,
      version BIGINT NOT NULL,
      updated_at TIMESTAMP NOT NULL,
      PRIMARY KEY (project_id, trace_id)
    )`,
  ],
};

/** The columns of a stored span, in table order (the span writer appends in this order). */
export const SPAN_COLUMNS = `
  project_id VARCHAR NOT NULL,
  trace_id UHUGEINT NOT NULL,
  span_id UBIGINT NOT NULL,
  parent_span_id UBIGINT,
  name VARCHAR NOT NULL,
  kind UTINYINT NOT NULL,
  start_ns UBIGINT NOT NULL,
  end_ns UBIGINT NOT NULL,
  status_code UTINYINT NOT NULL,
  session_id VARCHAR,
  scope_id UBIGINT NOT NULL,
  attributes VARCHAR NOT NULL,
  detail VARCHAR,
  received_at TIMESTAMP NOT NULL`;

/**
 * The span store laid out for ingest speed: ids as integers (a fixed-size
 * primary key is several times cheaper to maintain than hex text), the
 * resource and scope of an export stored once in `span_scopes` and referenced
 * by content hash, and the rarely set members packed in one `detail` JSON.
 * Replaces the first layout; spans stored before it are dropped (it predates
 * any release).
 */
export const compactSpansSchema: DuckdbMigration = {
  id: '0003_spans_compact',
  statements: [
    'DROP TABLE spans',
    'DROP TABLE trace_pending',
    `CREATE TABLE span_scopes (
      organization_id VARCHAR NOT NULL,
      project_id VARCHAR NOT NULL,
      scope_id UBIGINT NOT NULL,
      resource_attributes VARCHAR NOT NULL,
      scope_name VARCHAR,
      scope_version VARCHAR,
      scope_attributes VARCHAR NOT NULL,
      first_received_at TIMESTAMP NOT NULL,
      PRIMARY KEY (project_id, scope_id)
    )`,
    `CREATE TABLE spans (${SPAN_COLUMNS}, PRIMARY KEY (project_id, trace_id, span_id))`,
    // Append-only (an upsert per commit costs more than the spans): one row per trace and commit that
    // touched it; the deriver takes a trace's newest seq and deletes the rows up to it once derived.
    'CREATE SEQUENCE trace_pending_seq',
    `CREATE TABLE trace_pending (
      organization_id VARCHAR NOT NULL,
      project_id VARCHAR NOT NULL,
      trace_id UHUGEINT NOT NULL,
      seq BIGINT NOT NULL,
      marked_at TIMESTAMP NOT NULL
    )`,
  ],
};
