import { z } from 'zod';
import { CursorQuery, Id, NullableTimestamp, Timestamp, cursorPage } from '../common.js';

/** Where a production conversation came from. */
export const ConversationSource = z.enum(['platform_a', 'platform_b']).meta({ id: 'ConversationSource' });
export type ConversationSource = z.infer<typeof ConversationSource>;

/** Aggregate agent-reply latency of one conversation (end of user speech to first agent audio). */
export const ConversationLatency = z
  .strictObject({
    agent_turns: z.number().int().min(0).describe('Agent turns with a measured latency'),
    p50_ms: z.number().nullable(),
    p95_ms: z.number().nullable(),
    max_ms: z.number().nullable(),
  })
  .meta({ id: 'ConversationLatency' });
export type ConversationLatency = z.infer<typeof ConversationLatency>;

/** One production conversation as lists show it. */
export const ConversationSummary = z
  .strictObject({
    id: z.string().describe('`cnv_...`'),
    project_id: z.string(),
    source: ConversationSource,
    external_id: z.string().describe('The platform\'s conversation id, or the worker session id for platform_b'),
    agent_id: z.string().nullable().describe('The svc agent (`agt_...`) this conversation belongs to, when known'),
    platform_agent_id: z.string().nullable(),
    started_at: Timestamp,
    ended_at: NullableTimestamp,
    duration_ms: z.number().nullable(),
    termination_reason: z.string().nullable(),
    turn_count: z.number().int().min(0),
    tool_call_count: z.number().int().min(0),
    latency: ConversationLatency,
    trace_id: z.string().nullable().describe('OTLP trace id (hex) for conversations seen in spans'),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'ConversationSummary' });
export type ConversationSummary = z.infer<typeof ConversationSummary>;

/** One turn of a transcript. */
export const ConversationTurn = z
  .strictObject({
    index: z.number().int().min(0),
    role: z.enum(['user', 'agent', 'tool']),
    text: z.string().nullable(),
    started_at: NullableTimestamp,
    offset_ms: z.number().nullable().describe('Time since the start of the call'),
    duration_ms: z.number().nullable(),
    latency_ms: z.number().nullable().describe('Agent turns: end of user speech to first agent audio'),
    llm_ttft_ms: z.number().nullable().describe('Agent turns: language model time to first token'),
    tts_ttfb_ms: z.number().nullable().describe('Agent turns: speech synthesis time to first byte'),
    interrupted: z.boolean(),
    tool_name: z.string().nullable(),
  })
  .meta({ id: 'ConversationTurn' });
export type ConversationTurn = z.infer<typeof ConversationTurn>;

/** A tool the agent called during the conversation. */
export const ConversationToolCall = z
  .strictObject({
    name: z.string(),
    arguments: z.unknown().nullable(),
    output: z.unknown().nullable(),
    error: z.string().nullable(),
    started_at: NullableTimestamp,
    duration_ms: z.number().nullable(),
    turn_index: z.number().int().nullable(),
  })
  .meta({ id: 'ConversationToolCall' });
export type ConversationToolCall = z.infer<typeof ConversationToolCall>;

/** A production conversation with its transcript, tool calls and metadata. */
export const ConversationDetail = ConversationSummary.extend({
  turns: z.array(ConversationTurn),
  tool_calls: z.array(ConversationToolCall),
  metadata: z.record(z.string(), z.unknown()),
}).meta({ id: 'ConversationDetail' });
export type ConversationDetail = z.infer<typeof ConversationDetail>;

export const GetConversationsQuery = CursorQuery.extend({
  project: Id.optional().describe('Project id or name; defaults to the key\'s project'),
  agent_id: Id.optional().describe('svc agent id (`agt_...`) or the platform\'s agent id'),
  source: ConversationSource.optional(),
  started_after: z.iso.datetime().optional().describe('Inclusive lower bound on `started_at`'),
  started_before: z.iso.datetime().optional().describe('Exclusive upper bound on `started_at`'),
});
export const GetConversationsResponse = cursorPage(ConversationSummary);
export const ConversationIdParams = z.strictObject({ conversationId: Id });
