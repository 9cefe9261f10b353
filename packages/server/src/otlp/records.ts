import { sessionIdOf } from './attributes-json.js';
import { type SpanColumns, SpanColumnsBuilder, rejectionOf } from './columns.js';
import type { DecodedExport, EventInput, LinkInput } from './model.js';

export { SESSION_ATTRIBUTES, sessionIdOf } from './attributes-json.js';

/** The rarely set members of a span, which `detailOf` packs into one JSON column. */
export interface DetailInput {
  statusMessage: string;
  traceState: string;
  flags: number;
  events: EventInput[];
  links: LinkInput[];
  droppedAttributesCount: number;
  droppedEventsCount: number;
  droppedLinksCount: number;
}

/** The detail JSON of a span: only the members that carry something; null when none does. */
export function detailOf(s: DetailInput): string | null {
  const d: Record<string, unknown> = {};
  if (s.statusMessage) d.status_message = s.statusMessage;
  if (s.traceState) d.trace_state = s.traceState;
  if (s.flags) d.flags = s.flags >>> 0;
  if (s.events.length) d.events = s.events.map((e) => ({ name: e.name, time_unix_nano: e.timeNs.toString(), attributes: e.attributes }));
  if (s.links.length) d.links = s.links.map((l) => ({ trace_id: l.traceId ?? '', span_id: l.spanId ?? '', trace_state: l.traceState || null, attributes: l.attributes }));
  if (s.droppedAttributesCount) d.dropped_attributes_count = s.droppedAttributesCount >>> 0;
  if (s.droppedEventsCount) d.dropped_events_count = s.droppedEventsCount >>> 0;
  if (s.droppedLinksCount) d.dropped_links_count = s.droppedLinksCount >>> 0;
  for (const _ in d) return JSON.stringify(d);
  return null;
}

/** A hex id the JSON decoder validated (null: invalid, '' for a parent: none) as raw bytes for the checks and keys. */
function idBytes(hex: string | null): Uint8Array | null {
  return hex === null ? null : Buffer.from(hex, 'hex');
}

/**
 * The span-store columns of a decoded OTLP/JSON request (the protobuf
 * decoder builds its columns directly): spans are validated one by one,
 * the valid ones become rows, the others are counted with a short reason.
 */
export function toColumns(decoded: DecodedExport): SpanColumns {
  const columns = new SpanColumnsBuilder(decoded.spanCount);
  for (const scope of decoded.scopes) {
    columns.scope(JSON.stringify(scope.resourceAttributes), scope.scopeName, scope.scopeVersion, JSON.stringify(scope.scopeAttributes));
    for (const s of scope.spans) {
      const traceId = idBytes(s.traceId);
      const spanId = idBytes(s.spanId);
      // The decoder reports a malformed parent as null: give the check something that is not 8 bytes.
      const parentId = s.parentSpanId === null ? new Uint8Array(1) : idBytes(s.parentSpanId);
      const reason = rejectionOf(traceId, spanId, parentId, s.startNs, s.endNs);
      if (reason) {
        columns.reject(reason, spanId);
        continue;
      }
      columns.add(traceId!, spanId!, parentId, s.name, s.kind, s.startNs, s.endNs, s.statusCode, JSON.stringify(s.attributes), sessionIdOf(s.attributes), detailOf(s));
    }
  }
  return columns.finish();
}
