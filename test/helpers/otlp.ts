import path from 'node:path';
import { type Span, SpanKind, SpanStatusCode, type Tracer, context, trace } from '@opentelemetry/api';
import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter as HttpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { CompressionAlgorithm } from '@opentelemetry/otlp-exporter-base';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import protobuf from 'protobufjs';
import { client } from './http.js';
import { ROOT } from './paths.js';
import type { Bootstrap, TestServer } from './server.js';

/** A new project-scoped key of the bootstrapped project (trace ingest needs one). */
export async function projectKey(server: TestServer, admin: Bootstrap, name = 'ingest'): Promise<string> {
  const created = await client(server.url, admin.api_key).post('/api/keys', { name, project_id: admin.project_id });
  if (created.status !== 201) throw new Error(`could not create a project key: ${created.text}`);
  return created.body.secret as string;
}

/** Real SDK spans (the OpenTelemetry SDK's own ReadableSpan objects), recorded in memory. */
export function recordSpans(build: (tracer: Tracer) => void, resource: Record<string, string> = { 'service.name': 'test-worker' }): ReadableSpan[] {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ resource: resourceFromAttributes(resource), spanProcessors: [new SimpleSpanProcessor(memory)] });
  build(provider.getTracer('svc-tests', '1.2.3'));
  return memory.getFinishedSpans();
}

/** A child span of `parent` with explicit times (ms since the epoch, fractional allowed). */
export function childOf(tracer: Tracer, parent: Span, name: string, startMs: number, endMs: number, attributes: Record<string, string | number | boolean> = {}): Span {
  const span = tracer.startSpan(name, { startTime: hr(startMs), attributes }, trace.setSpan(context.active(), parent));
  span.end(hr(endMs));
  return span;
}

/** Milliseconds since the epoch as OpenTelemetry HrTime. */
export function hr(ms: number): [number, number] {
  return [Math.floor(ms / 1000), Math.round((ms % 1000) * 1e6)];
}

/** A small trace: a root `agent_session` with two children, an event, a link, an error status and a server kind. */
export function sampleTrace(count = 3): ReadableSpan[] {
  return recordSpans((tracer) => {
    const t0 = Date.now() - 5000;
    const root = tracer.startSpan('agent_session', { startTime: hr(t0), kind: SpanKind.SERVER, attributes: { 'svc.session.id': `s-${Math.random()}`, 'lk.agent_name': 'desk', n: 7 } });
    for (let i = 0; i < count - 1; i++) {
      const child = tracer.startSpan(`step_${i}`, { startTime: hr(t0 + 10 + i), links: [{ context: root.spanContext(), attributes: { why: 'test' } }] }, trace.setSpan(context.active(), root));
      child.addEvent('checkpoint', { i }, hr(t0 + 11 + i));
      child.setStatus({ code: SpanStatusCode.ERROR, message: `failed ${i}` });
      child.end(hr(t0 + 20 + i));
    }
    root.end(hr(t0 + 100));
  });
}

/** Exports with an official exporter and resolves its result. */
export function exportSpans(exporter: { export(spans: ReadableSpan[], cb: (r: ExportResult) => void): void }, spans: ReadableSpan[]): Promise<ExportResult> {
  return new Promise((resolve) => exporter.export(spans, resolve));
}

/** The official protobuf exporter (optionally gzip) aimed at the server with a key. */
export function protoExporter(server: TestServer, key: string, gzip = false) {
  return new ProtoExporter({
    url: `${server.url}/v1/traces`,
    headers: { authorization: `Bearer ${key}` },
    compression: gzip ? CompressionAlgorithm.GZIP : CompressionAlgorithm.NONE,
    timeoutMillis: 10_000,
  });
}

/** The official OTLP/HTTP JSON exporter. */
export function jsonExporter(server: TestServer, key: string, gzip = false) {
  return new HttpJsonExporter({
    url: `${server.url}/v1/traces`,
    headers: { authorization: `Bearer ${key}` },
    compression: gzip ? CompressionAlgorithm.GZIP : CompressionAlgorithm.NONE,
    timeoutMillis: 10_000,
  });
}

/** The bytes the official serializers put on the wire. */
export const serialize = {
  protobuf: (spans: ReadableSpan[]) => Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!),
  json: (spans: ReadableSpan[]) => Buffer.from(JsonTraceSerializer.serializeRequest(spans)!),
};

export { ExportResultCode };

const PROTO_DIR = path.join(ROOT, 'packages/server/src/otlp/proto');
const root = new protobuf.Root();
// google/protobuf/* are built into protobufjs; everything else is the checked-in copy the server is generated from.
root.resolvePath = (_origin, target) => (target.startsWith('google/protobuf/') ? target : path.join(PROTO_DIR, target));
root.loadSync(['opentelemetry/proto/collector/trace/v1/trace_service.proto', 'google/rpc/status.proto']);

/** Decodes a protobuf refusal (`google.rpc.Status`) with reflection over the checked-in .proto files. */
export function decodeStatus(body: ArrayBuffer | Uint8Array): { code: number; message: string } {
  const message = root.lookupType('google.rpc.Status').decode(new Uint8Array(body)) as unknown as { code: number; message: string };
  return { code: message.code, message: message.message };
}

/** Decodes a protobuf `ExportTraceServiceResponse`. */
export function decodeExportResponse(body: ArrayBuffer | Uint8Array): { rejectedSpans: number; errorMessage: string } | null {
  const type = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse');
  const message = type.toObject(type.decode(new Uint8Array(body)), { longs: Number }) as { partialSuccess?: { rejectedSpans?: number; errorMessage?: string } };
  if (!message.partialSuccess) return null;
  return { rejectedSpans: message.partialSuccess.rejectedSpans ?? 0, errorMessage: message.partialSuccess.errorMessage ?? '' };
}

/** Polls `fn` until it returns a truthy value (or fails after `timeoutMs`, naming `what`). */
export async function eventually<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A protobuf varint. */
function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

/** A length-delimited field's key and length (wire type 2). */
const lenField = (field: number, length: number) => [(field << 3) | 2, ...varint(length)];

/**
 * An ExportTraceServiceRequest with one span whose attribute `deep` is an
 * AnyValue of arrays nested `depth` times, encoded by hand from the inside
 * out (a protobuf library would recurse as deep as the value).
 */
export function deepProtobuf(depth: number): Buffer {
  const prefixes: number[][] = [];
  let size = 2; // AnyValue{int_value: 1}
  for (let i = 0; i < depth; i++) {
    const array = lenField(1, size); // ArrayValue.values
    size += array.length;
    const any = lenField(5, size); // AnyValue.array_value
    size += any.length;
    prefixes.push(any, array);
  }
  const value = Buffer.from([...prefixes.reverse().flat(), 0x18, 0x01]);
  const keyValue = Buffer.concat([Buffer.from([0x0a, 4]), Buffer.from('deep'), Buffer.from(lenField(2, value.length)), value]);
  const ids = Buffer.concat([Buffer.from(lenField(1, 16)), Buffer.alloc(16, 0xab), Buffer.from(lenField(2, 8)), Buffer.alloc(8, 0xcd)]);
  const times = Buffer.from([0x39, ...Buffer.alloc(8, 1), 0x41, ...Buffer.alloc(8, 2)]);
  const name = Buffer.from([...lenField(5, 4), ...Buffer.from('deep')]);
  const span = Buffer.concat([ids, name, times, Buffer.from(lenField(9, keyValue.length)), keyValue]);
  const scopeSpans = Buffer.concat([Buffer.from(lenField(2, span.length)), span]);
  const resourceSpans = Buffer.concat([Buffer.from(lenField(2, scopeSpans.length)), scopeSpans]);
  return Buffer.concat([Buffer.from(lenField(1, resourceSpans.length)), resourceSpans]);
}

/** The same as OTLP JSON: an attribute value of `arrayValue`s nested `depth` times. */
export function deepJson(depth: number): Buffer {
  const value = '{"arrayValue":{"values":['.repeat(depth) + '{"intValue":"1"}' + ']}}'.repeat(depth);
  const span = `{"traceId":"${'ab'.repeat(16)}","spanId":"${'cd'.repeat(8)}","name":"deep","startTimeUnixNano":"1","endTimeUnixNano":"2","attributes":[{"key":"deep","value":${value}}]}`;
  return Buffer.from(`{"resourceSpans":[{"scopeSpans":[{"spans":[${span}]}]}]}`);
}
