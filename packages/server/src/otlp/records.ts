import type { Attributes, DecodedExport, SpanInput } from './model.js';

/** Span attributes that name the session a span belongs to, strongest first (see conversations/README.md). */
export const SESSION_ATTRIBUTES = ['svc.session.id', 'gen_ai.conversation.id', 'conversation.id', 'session.id'] as const;

/** One span ready for the span store (one row of `spans`). JSON columns are already serialized. */
export interface SpanRecord {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  kind: number;
  startNs: bigint;
  endNs: bigint;
  statusCode: number;
  statusMessage: string | null;
  traceState: string | null;
  flags: number;
  attributes: string;
  resourceAttributes: string;
  scopeName: string | null;
  scopeVersion: string | null;
  scopeAttributes: string;
  events: string;
  links: string;
  droppedAttributesCount: number;
  droppedEventsCount: number;
  droppedLinksCount: number;
  sessionId: string | null;
}

/** The spans of a request that can be stored, and why the others cannot. */
export interface ExportRecords {
  records: SpanRecord[];
  rejected: number;
  /** Human summary of the rejections, empty when none. */
  errorMessage: string;
}

const MAX_UINT64 = (1n << 64n) - 1n;

/** The session id a span names, if any. */
export function sessionIdOf(attributes: Attributes): string | null {
  for (const key of SESSION_ATTRIBUTES) {
    const value = attributes[key];
    if ((typeof value === 'string' && value !== '') || typeof value === 'number') return String(value);
  }
  return null;
}

function rejectionOf(s: SpanInput): string | null {
  if (s.traceId === null) return 'trace id is not 16 non-zero bytes';
  if (s.spanId === null) return 'span id is not 8 non-zero bytes';
  if (s.parentSpanId === null) return 'parent span id is not 8 bytes';
  if (s.startNs === 0n) return 'start time is missing';
  if (s.endNs < s.startNs) return 'end time is before start time';
  if (s.endNs > MAX_UINT64) return 'end time is out of range';
  return null;
}

/**
 * Validates spans one by one: the valid ones become records, the others are
 * counted with a short reason (the first few span ids are named).
 */
export function toRecords(decoded: DecodedExport): ExportRecords {
  const records: SpanRecord[] = [];
  const reasons = new Map<string, string[]>();
  let rejected = 0;
  for (const scope of decoded.scopes) {
    const resourceAttributes = JSON.stringify(scope.resourceAttributes);
    const scopeAttributes = JSON.stringify(scope.scopeAttributes);
    for (const s of scope.spans) {
      const reason = rejectionOf(s);
      if (reason) {
        rejected++;
        const ids = reasons.get(reason) ?? [];
        if (ids.length < 3) ids.push(s.spanId ?? '?');
        reasons.set(reason, ids);
        continue;
      }
      records.push({
        traceId: s.traceId!,
        spanId: s.spanId!,
        parentSpanId: s.parentSpanId || null,
        name: s.name,
        kind: s.kind & 0xff,
        startNs: s.startNs,
        endNs: s.endNs,
        statusCode: s.statusCode & 0xff,
        statusMessage: s.statusMessage || null,
        traceState: s.traceState || null,
        flags: s.flags >>> 0,
        attributes: JSON.stringify(s.attributes),
        resourceAttributes,
        scopeName: scope.scopeName || null,
        scopeVersion: scope.scopeVersion || null,
        scopeAttributes,
        events: s.events.length ? JSON.stringify(s.events.map((e) => ({ name: e.name, time_unix_nano: e.timeNs.toString(), attributes: e.attributes }))) : '[]',
        links: s.links.length
          ? JSON.stringify(s.links.map((l) => ({ trace_id: l.traceId ?? '', span_id: l.spanId ?? '', trace_state: l.traceState || null, attributes: l.attributes })))
          : '[]',
        droppedAttributesCount: s.droppedAttributesCount >>> 0,
        droppedEventsCount: s.droppedEventsCount >>> 0,
        droppedLinksCount: s.droppedLinksCount >>> 0,
        sessionId: sessionIdOf(s.attributes),
      });
    }
  }
  const errorMessage = [...reasons].map(([reason, ids]) => `${reason} (span ${ids.join(', ')})`).join('; ');
  return { records, rejected, errorMessage: rejected ? `${rejected} span(s) rejected: ${errorMessage}` : '' };
}
