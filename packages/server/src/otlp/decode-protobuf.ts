import { AttributeJsonWriter } from './attributes-json.js';
import { idFromBytes, longToBigInt, protoAttributes } from './attributes.js';
import { type SpanColumns, SpanColumnsBuilder, rejectionOf } from './columns.js';
import { opentelemetry } from './generated/otlp.js';
import type * as Proto from './generated/otlp-types.js';
import { OtlpDecodeError } from './model.js';
import { OtlpReader } from './reader.js';
import { detailOf } from './records.js';

const { ExportTraceServiceRequest } = opentelemetry.proto.collector.trace.v1;
type ProtoSpan = Proto.opentelemetry.proto.trace.v1.ISpan;
type Request = Proto.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

// The detail of a span that carries nothing rare but its flags (every span of the OpenTelemetry JS SDK 2.x), by flags.
const flagsOnly = new Map<number, string>();

/** The detail JSON of a protobuf span, or null; built only for the spans that carry one. */
function protoDetail(s: ProtoSpan): string | null {
  const events = s.events ?? [];
  const links = s.links ?? [];
  const statusMessage = s.status?.message ?? '';
  if (!statusMessage && !s.traceState && !events.length && !links.length && !s.droppedAttributesCount && !s.droppedEventsCount && !s.droppedLinksCount) {
    if (!s.flags) return null;
    let detail = flagsOnly.get(s.flags);
    if (detail === undefined) {
      detail = JSON.stringify({ flags: s.flags >>> 0 });
      if (flagsOnly.size < 64) flagsOnly.set(s.flags, detail);
    }
    return detail;
  }
  return detailOf({
    statusMessage,
    traceState: s.traceState ?? '',
    flags: s.flags ?? 0,
    events: events.map((e) => ({ name: e.name ?? '', timeNs: longToBigInt(e.timeUnixNano as never), attributes: protoAttributes(e.attributes) })),
    links: links.map((l) => ({ traceId: idFromBytes(l.traceId, 16), spanId: idFromBytes(l.spanId, 8), traceState: l.traceState ?? '', attributes: protoAttributes(l.attributes) })),
    droppedAttributesCount: s.droppedAttributesCount ?? 0,
    droppedEventsCount: s.droppedEventsCount ?? 0,
    droppedLinksCount: s.droppedLinksCount ?? 0,
  });
}

/**
 * Decodes a protobuf `ExportTraceServiceRequest` with the generated static
 * code (run on `OtlpReader`) straight into span-store columns: spans are
 * validated one by one (rejections become OTLP `partialSuccess`).
 */
export function decodeProtobufSpans(body: Buffer): SpanColumns {
  let request: Request;
  try {
    request = ExportTraceServiceRequest.decode(new OtlpReader(body));
  } catch (err) {
    throw new OtlpDecodeError(`the body is not a protobuf ExportTraceServiceRequest: ${(err as Error).message}`);
  }
  let total = 0;
  for (const rs of request.resourceSpans) for (const ss of rs.scopeSpans ?? []) total += ss.spans?.length ?? 0;
  const columns = new SpanColumnsBuilder(total);
  const attributes = new AttributeJsonWriter();
  for (const rs of request.resourceSpans) {
    const resourceAttributes = JSON.stringify(protoAttributes(rs.resource?.attributes));
    for (const ss of rs.scopeSpans ?? []) {
      columns.scope(resourceAttributes, ss.scope?.name ?? '', ss.scope?.version ?? '', JSON.stringify(protoAttributes(ss.scope?.attributes)));
      for (const s of ss.spans ?? []) {
        const startNs = longToBigInt(s.startTimeUnixNano as never);
        const endNs = longToBigInt(s.endTimeUnixNano as never);
        const reason = rejectionOf(s.traceId ?? null, s.spanId ?? null, s.parentSpanId ?? null, startNs, endNs);
        if (reason) {
          columns.reject(reason, s.spanId ?? null);
          continue;
        }
        const json = attributes.write(s.attributes);
        columns.add(s.traceId!, s.spanId!, s.parentSpanId ?? null, s.name ?? '', s.kind ?? 0, startNs, endNs, s.status?.code ?? 0, json, attributes.sessionId, protoDetail(s));
      }
    }
  }
  return columns.finish();
}
