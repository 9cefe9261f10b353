import type { TraceDetail, TraceSpanNode } from '@svc/contract';
import type { StoredSpan } from './repository.js';

const KINDS = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'] as const;
const STATUS = ['unset', 'ok', 'error'] as const;
const nsToIso = (ns: bigint) => new Date(Number(ns / 1_000_000n)).toISOString();
const nsToMs = (ns: bigint) => Number(ns / 1000n) / 1000;

/** Builds the span tree of a trace: roots (and orphans whose parent never arrived) by start time, children nested. */
export function traceTree(traceId: string, spans: readonly StoredSpan[], conversationId: string | null): TraceDetail {
  const nodes = new Map<string, TraceSpanNode>();
  for (const s of spans) {
    nodes.set(s.spanId, {
      span_id: s.spanId,
      parent_span_id: s.parentSpanId,
      name: s.name,
      kind: KINDS[s.kind] ?? 'unspecified',
      start_time_unix_nano: s.startNs.toString(),
      end_time_unix_nano: s.endNs.toString(),
      started_at: nsToIso(s.startNs),
      duration_ms: nsToMs(s.endNs - s.startNs),
      status: { code: STATUS[s.statusCode] ?? 'unset', message: s.statusMessage },
      attributes: s.attributes,
      events: s.events,
      links: s.links,
      scope: { name: s.scopeName, version: s.scopeVersion },
      children: [],
    });
  }
  const roots: TraceSpanNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parent_span_id ? nodes.get(node.parent_span_id) : undefined;
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  const start = spans.reduce((min, s) => (s.startNs < min ? s.startNs : min), spans[0]!.startNs);
  const end = spans.reduce((max, s) => (s.endNs > max ? s.endNs : max), spans[0]!.endNs);
  const firstRoot = spans.find((s) => !s.parentSpanId) ?? spans[0]!;
  return {
    trace_id: traceId,
    project_id: spans[0]!.projectId,
    span_count: spans.length,
    started_at: nsToIso(start),
    ended_at: nsToIso(end),
    duration_ms: nsToMs(end - start),
    resource: firstRoot.resourceAttributes,
    conversation_id: conversationId,
    spans: roots,
  };
}
