import type { DuckdbMigration } from '../migrations.js';

/**
 * Production conversations from every source. One row per
 * (project, source, external_id): replays and re-sent spans never make a second one.
 * Transcript, tool calls and metadata are JSON text.
 */
export const conversationsSchema: DuckdbMigration = {
  id: '0001_conversations',
  statements: [
    `CREATE TABLE conversations (
      id VARCHAR NOT NULL UNIQUE,
      organization_id VARCHAR NOT NULL,
      project_id VARCHAR NOT NULL,
      source VARCHAR NOT NULL,
      external_id VARCHAR NOT NULL,
      agent_id VARCHAR,
      platform_agent_id VARCHAR,
      started_at TIMESTAMP NOT NULL,
      ended_at TIMESTAMP,
      duration_ms DOUBLE,
      termination_reason VARCHAR,
      turn_count INTEGER NOT NULL,
      tool_call_count INTEGER NOT NULL,
      latency_agent_turns INTEGER NOT NULL,
      latency_p50_ms DOUBLE,
      latency_p95_ms DOUBLE,
      latency_max_ms DOUBLE,
      trace_id VARCHAR,
      turns VARCHAR NOT NULL,
      tool_calls VARCHAR NOT NULL,
      metadata VARCHAR NOT NULL,
      created_at TIMESTAMP NOT NULL,
      updated_at TIMESTAMP NOT NULL,
      PRIMARY KEY (project_id, source, external_id)
    )`,
  ],
};
