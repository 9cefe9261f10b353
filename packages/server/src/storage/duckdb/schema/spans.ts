import type { DuckdbMigration } from '../migrations.js';

/** The columns of a stored span, in table order (the span writer appends in this order). */
export const SPAN_COLUMNS = `
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
    `CREATE TABLE spans (${SPAN_COLUMNS}, PRIMARY KEY (project_id, trace_id, span_id))`,
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
