/** An attribute value as stored: OTLP AnyValue as plain JSON (int64 beyond 2^53 as a decimal string, bytes as base64). */
export type AttrValue = string | number | boolean | null | AttrValue[] | { [key: string]: AttrValue };
export type Attributes = Record<string, AttrValue>;

/** A span as either decoder hands it over: ids as lowercase hex, or `null` when absent or of the wrong length. */
export interface SpanInput {
  traceId: string | null;
  spanId: string | null;
  /** `''` for a root span; `null` when present but not 8 bytes. */
  parentSpanId: string | null;
  traceState: string;
  flags: number;
  name: string;
  kind: number;
  startNs: bigint;
  endNs: bigint;
  attributes: Attributes;
  droppedAttributesCount: number;
  events: EventInput[];
  droppedEventsCount: number;
  links: LinkInput[];
  droppedLinksCount: number;
  statusCode: number;
  statusMessage: string;
}

export interface EventInput {
  name: string;
  timeNs: bigint;
  attributes: Attributes;
}

export interface LinkInput {
  traceId: string | null;
  spanId: string | null;
  traceState: string;
  attributes: Attributes;
}

/** Spans of one instrumentation scope of one resource. */
export interface ScopeInput {
  resourceAttributes: Attributes;
  scopeName: string;
  scopeVersion: string;
  scopeAttributes: Attributes;
  spans: SpanInput[];
}

/** A decoded export request: resource/scope groups in request order. */
export interface DecodedExport {
  scopes: ScopeInput[];
  spanCount: number;
}

/** The decoder's refusal of a body it cannot read (400 `invalid_otlp`). */
export class OtlpDecodeError extends Error {
  override readonly name = 'OtlpDecodeError';
}
