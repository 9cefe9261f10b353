import { createHash } from 'node:crypto';
import type { Attributes, DecodedExport, SpanInput } from './model.js';

/** Span attributes that name the session a span belongs to, strongest first (see conversations/README.md). */
export const SESSION_ATTRIBUTES = ['svc.session.id', 'gen_ai.conversation.id', 'conversation.id', 'session.id'] as const;

/**
 * One span ready for the span store (one row of `spans`): ids as integer keys
 * (and hex for everything else), JSON columns already serialized, the
 * resource and scope by reference to a `ScopeRecord`.
 */
export interface SpanRecord {
  traceId: string;
  traceKey: bigint;
  spanId: string;
  spanKey: bigint;
  parentKey: bigint | null;
  name: string;
  kind: number;
  startNs: bigint;
  endNs: bigint;
  statusCode: number;
  sessionId: string | null;
  scopeId: bigint;
  attributes: string;
  /** The rarely set members (status message, trace state, flags, events, links, dropped counts) as JSON; null when all are empty. */
  detail: string | null;
}

/** A resource and instrumentation scope, stored once per project and referenced by its content hash. */
export interface ScopeRecord {
  scopeId: bigint;
  resourceAttributes: string;
  scopeName: string | null;
  scopeVersion: string | null;
  scopeAttributes: string;
}

/** The spans of a request that can be stored, their scopes, and why the others cannot. */
export interface ExportRecords {
  records: SpanRecord[];
  scopes: ScopeRecord[];
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

/** The 64-bit content hash that identifies a resource and scope. */
function scopeIdOf(resourceAttributes: string, name: string, version: string, attributes: string): bigint {
  return createHash('sha256').update(resourceAttributes).update('\0').update(name).update('\0').update(version).update('\0').update(attributes).digest().readBigUInt64BE(0);
}

/** The detail JSON of a span: only the members that carry something. */
function detailOf(s: SpanInput): string | null {
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

const key = (hex: string) => BigInt(`0x${hex}`);

/**
 * Validates spans one by one: the valid ones become records, the others are
 * counted with a short reason (the first few span ids are named).
 */
export function toRecords(decoded: DecodedExport): ExportRecords {
  const records: SpanRecord[] = [];
  const scopes: ScopeRecord[] = [];
  const reasons = new Map<string, string[]>();
  let rejected = 0;
  for (const scope of decoded.scopes) {
    const resourceAttributes = JSON.stringify(scope.resourceAttributes);
    const scopeAttributes = JSON.stringify(scope.scopeAttributes);
    const scopeId = scopeIdOf(resourceAttributes, scope.scopeName, scope.scopeVersion, scopeAttributes);
    if (!scopes.some((s) => s.scopeId === scopeId)) {
      scopes.push({ scopeId, resourceAttributes, scopeName: scope.scopeName || null, scopeVersion: scope.scopeVersion || null, scopeAttributes });
    }
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
        traceKey: key(s.traceId!),
        spanId: s.spanId!,
        spanKey: key(s.spanId!),
        parentKey: s.parentSpanId ? key(s.parentSpanId) : null,
        name: s.name,
        kind: s.kind & 0xff,
        startNs: s.startNs,
        endNs: s.endNs,
        statusCode: s.statusCode & 0xff,
        sessionId: sessionIdOf(s.attributes),
        scopeId,
        attributes: JSON.stringify(s.attributes),
        detail: detailOf(s),
      });
    }
  }
  const errorMessage = [...reasons].map(([reason, ids]) => `${reason} (span ${ids.join(', ')})`).join('; ');
  return { records, scopes, rejected, errorMessage: rejected ? `${rejected} span(s) rejected: ${errorMessage}` : '' };
}
