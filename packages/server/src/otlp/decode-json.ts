import { idFromHex, jsonArray, jsonAttributes } from './attributes.js';
import { type DecodedExport, OtlpDecodeError, type ScopeInput, type SpanInput } from './model.js';

type Obj = Record<string, unknown>;

const SPAN_KINDS: Record<string, number> = {
  SPAN_KIND_UNSPECIFIED: 0, SPAN_KIND_INTERNAL: 1, SPAN_KIND_SERVER: 2, SPAN_KIND_CLIENT: 3, SPAN_KIND_PRODUCER: 4, SPAN_KIND_CONSUMER: 5,
};
const STATUS_CODES: Record<string, number> = { STATUS_CODE_UNSET: 0, STATUS_CODE_OK: 1, STATUS_CODE_ERROR: 2 };

function object(value: unknown, what: string): Obj {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new OtlpDecodeError(`${what} must be an object`);
  return value as Obj;
}

/** OTLP/JSON int64/fixed64: a decimal string or a number. */
function uint64(value: unknown, what: string): bigint {
  if (value === undefined || value === null) return 0n;
  if (typeof value === 'string' && /^\d+$/.test(value)) return BigInt(value);
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return BigInt(Math.trunc(value));
  throw new OtlpDecodeError(`${what} must be an unsigned integer (string or number)`);
}

function small(value: unknown, names: Record<string, number> = {}): number {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string') return names[value] ?? (/^\d+$/.test(value) ? Number(value) : 0);
  return 0;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A parent id: absent or empty means root; anything else must be a valid 8-byte hex id. */
function parentId(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return '';
  return idFromHex(value, 8);
}

function toSpan(raw: unknown): SpanInput {
  const s = object(raw, 'span');
  const status = object(s.status, 'status');
  return {
    traceId: idFromHex(s.traceId, 16),
    spanId: idFromHex(s.spanId, 8),
    parentSpanId: parentId(s.parentSpanId),
    traceState: text(s.traceState),
    flags: small(s.flags),
    name: text(s.name),
    kind: small(s.kind, SPAN_KINDS),
    startNs: uint64(s.startTimeUnixNano, 'startTimeUnixNano'),
    endNs: uint64(s.endTimeUnixNano, 'endTimeUnixNano'),
    attributes: jsonAttributes(s.attributes),
    droppedAttributesCount: small(s.droppedAttributesCount),
    events: jsonArray(s.events, 'events').map((e) => {
      const ev = object(e, 'event');
      return { name: text(ev.name), timeNs: uint64(ev.timeUnixNano, 'timeUnixNano'), attributes: jsonAttributes(ev.attributes) };
    }),
    droppedEventsCount: small(s.droppedEventsCount),
    links: jsonArray(s.links, 'links').map((l) => {
      const link = object(l, 'link');
      return { traceId: idFromHex(link.traceId, 16), spanId: idFromHex(link.spanId, 8), traceState: text(link.traceState), attributes: jsonAttributes(link.attributes) };
    }),
    droppedLinksCount: small(s.droppedLinksCount),
    statusCode: small(status.code, STATUS_CODES),
    statusMessage: text(status.message),
  };
}

/** Decodes an OTLP/JSON `ExportTraceServiceRequest`; unknown fields are ignored. */
export function decodeJsonExport(body: Buffer): DecodedExport {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch (err) {
    // Never the parser's message: V8 quotes the text around the error, and span attributes can hold anything.
    const position = /at position (\d+)/.exec((err as Error).message)?.[1];
    throw new OtlpDecodeError(`the body is not valid JSON${position ? ` (at character ${position})` : ''}`);
  }
  const root = object(parsed, 'the body');
  const scopes: ScopeInput[] = [];
  let spanCount = 0;
  for (const rsRaw of jsonArray(root.resourceSpans, 'resourceSpans')) {
    const rs = object(rsRaw, 'resourceSpans[]');
    const resourceAttributes = jsonAttributes(object(rs.resource, 'resource').attributes);
    for (const ssRaw of jsonArray(rs.scopeSpans, 'scopeSpans')) {
      const ss = object(ssRaw, 'scopeSpans[]');
      const scope = object(ss.scope, 'scope');
      const spans = jsonArray(ss.spans, 'spans').map(toSpan);
      spanCount += spans.length;
      scopes.push({ resourceAttributes, scopeName: text(scope.name), scopeVersion: text(scope.version), scopeAttributes: jsonAttributes(scope.attributes), spans });
    }
  }
  return { scopes, spanCount };
}
