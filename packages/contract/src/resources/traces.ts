import { z } from 'zod';
import { Id, NullableTimestamp, Timestamp } from '../common.js';

/** Largest OTLP request body, on the wire and decompressed (interface: Limits). */
export const TRACE_BODY_LIMIT_BYTES = 20 * 1024 * 1024;

/** OTLP/JSON int64: a decimal string (the proto3 JSON mapping) or a number. */
const Int64 = z.union([z.string().regex(/^-?\d+$/), z.number().int()]);

/**
 * `ExportTraceServiceResponse` in OTLP/JSON (camelCase, int64 as a string).
 * `partialSuccess` is present only when spans were rejected.
 */
export const ExportTraceServiceResponseJson = z
  .strictObject({
    partialSuccess: z
      .strictObject({
        rejectedSpans: Int64.describe('Spans that were not stored'),
        errorMessage: z.string().describe('Why, for the first rejected spans'),
      })
      .optional(),
  })
  .meta({ id: 'ExportTraceServiceResponse', description: 'OTLP ExportTraceServiceResponse (JSON encoding); the protobuf encoding is the same message' });
export type ExportTraceServiceResponseJson = z.infer<typeof ExportTraceServiceResponseJson>;

/** A span event as stored. */
export const TraceSpanEvent = z
  .strictObject({
    name: z.string(),
    time_unix_nano: z.string().describe('Nanoseconds since the Unix epoch, exact, as a decimal string'),
    attributes: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'TraceSpanEvent' });

/** A link from a span to another span. */
export const TraceSpanLink = z
  .strictObject({
    trace_id: z.string(),
    span_id: z.string(),
    trace_state: z.string().nullable(),
    attributes: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'TraceSpanLink' });

/** One stored span, its children nested (the span tree). */
export interface TraceSpanNode {
  span_id: string;
  parent_span_id: string | null;
  name: string;
  kind: 'unspecified' | 'internal' | 'server' | 'client' | 'producer' | 'consumer';
  start_time_unix_nano: string;
  end_time_unix_nano: string;
  started_at: string;
  duration_ms: number;
  status: { code: 'unset' | 'ok' | 'error'; message: string | null };
  attributes: Record<string, unknown>;
  events: z.infer<typeof TraceSpanEvent>[];
  links: z.infer<typeof TraceSpanLink>[];
  scope: { name: string | null; version: string | null };
  children: TraceSpanNode[];
}

export const TraceSpan: z.ZodType<TraceSpanNode> = z
  .strictObject({
    span_id: z.string().describe('16 lowercase hex characters'),
    parent_span_id: z.string().nullable().describe('Null for a root span (or a parent never received)'),
    name: z.string(),
    kind: z.enum(['unspecified', 'internal', 'server', 'client', 'producer', 'consumer']),
    start_time_unix_nano: z.string().describe('Exact nanoseconds since the Unix epoch, as a decimal string'),
    end_time_unix_nano: z.string(),
    started_at: Timestamp,
    duration_ms: z.number(),
    status: z.strictObject({ code: z.enum(['unset', 'ok', 'error']), message: z.string().nullable() }),
    attributes: z.record(z.string(), z.unknown()),
    events: z.array(TraceSpanEvent),
    links: z.array(TraceSpanLink),
    scope: z.strictObject({ name: z.string().nullable(), version: z.string().nullable() }),
    get children() {
      return z.array(TraceSpan);
    },
  })
  .meta({ id: 'TraceSpan' });

/** A trace: its spans as a tree, with the resource of the worker that sent them. */
export const TraceDetail = z
  .strictObject({
    trace_id: z.string().describe('32 lowercase hex characters'),
    project_id: z.string(),
    span_count: z.number().int().min(0),
    started_at: Timestamp,
    ended_at: NullableTimestamp,
    duration_ms: z.number(),
    resource: z.record(z.string(), z.unknown()).describe('Resource attributes of the first root span'),
    conversation_id: z.string().nullable().describe('The production conversation (`cnv_...`) derived from this trace, once derived'),
    spans: z.array(TraceSpan).describe('Root spans (and spans whose parent was never received), children nested, by start time'),
  })
  .meta({ id: 'TraceDetail' });
export type TraceDetail = z.infer<typeof TraceDetail>;

export const TraceIdParams = z.strictObject({
  traceId: Id.describe('The trace id, 32 hex characters (either case)'),
});
