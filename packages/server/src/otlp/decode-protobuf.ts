import Long from 'long';
import $protobuf from 'protobufjs/minimal.js';
import { idFromBytes, longToBigInt, protoAttributes } from './attributes.js';
import { opentelemetry } from './generated/otlp.js';
import type * as Proto from './generated/otlp-types.js';
import { type DecodedExport, OtlpDecodeError, type ScopeInput, type SpanInput } from './model.js';

// fixed64 nanosecond timestamps must stay exact: without Long, protobufjs falls back to lossy doubles.
$protobuf.util.Long = Long;
$protobuf.configure();

const { ExportTraceServiceRequest } = opentelemetry.proto.collector.trace.v1;
type ProtoSpan = Proto.opentelemetry.proto.trace.v1.Span.$Properties;

function toSpan(s: ProtoSpan): SpanInput {
  const parent = s.parentSpanId && s.parentSpanId.length > 0 ? idFromBytes(s.parentSpanId, 8) : '';
  return {
    traceId: idFromBytes(s.traceId, 16),
    spanId: idFromBytes(s.spanId, 8),
    parentSpanId: parent,
    traceState: s.traceState ?? '',
    flags: s.flags ?? 0,
    name: s.name ?? '',
    kind: s.kind ?? 0,
    startNs: longToBigInt(s.startTimeUnixNano as Long),
    endNs: longToBigInt(s.endTimeUnixNano as Long),
    attributes: protoAttributes(s.attributes),
    droppedAttributesCount: s.droppedAttributesCount ?? 0,
    events: (s.events ?? []).map((e) => ({ name: e.name ?? '', timeNs: longToBigInt(e.timeUnixNano as Long), attributes: protoAttributes(e.attributes) })),
    droppedEventsCount: s.droppedEventsCount ?? 0,
    links: (s.links ?? []).map((l) => ({
      traceId: idFromBytes(l.traceId, 16),
      spanId: idFromBytes(l.spanId, 8),
      traceState: l.traceState ?? '',
      attributes: protoAttributes(l.attributes),
    })),
    droppedLinksCount: s.droppedLinksCount ?? 0,
    statusCode: s.status?.code ?? 0,
    statusMessage: s.status?.message ?? '',
  };
}

/** Decodes a protobuf `ExportTraceServiceRequest` with the generated static code. */
export function decodeProtobufExport(body: Uint8Array): DecodedExport {
  let request: Proto.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
  try {
    request = ExportTraceServiceRequest.decode(body);
  } catch (err) {
    throw new OtlpDecodeError(`the body is not a protobuf ExportTraceServiceRequest: ${(err as Error).message}`);
  }
  const scopes: ScopeInput[] = [];
  let spanCount = 0;
  for (const rs of request.resourceSpans ?? []) {
    const resourceAttributes = protoAttributes(rs.resource?.attributes);
    for (const ss of rs.scopeSpans ?? []) {
      const spans = (ss.spans ?? []).map(toSpan);
      spanCount += spans.length;
      scopes.push({
        resourceAttributes,
        scopeName: ss.scope?.name ?? '',
        scopeVersion: ss.scope?.version ?? '',
        scopeAttributes: protoAttributes(ss.scope?.attributes),
        spans,
      });
    }
  }
  return { scopes, spanCount };
}
