import { defineOperation } from '../operation.js';
import { ExportTraceServiceResponseJson, TRACE_BODY_LIMIT_BYTES, TraceDetail, TraceIdParams } from '../resources/traces.js';

export const ingestTraces = defineOperation({
  operationId: 'ingestTraces',
  method: 'post',
  path: '/v1/traces',
  tag: 'Trace ingest',
  summary: 'OTLP/HTTP trace export (protobuf or JSON, optionally gzip)',
  description: [
    'The OpenTelemetry OTLP/HTTP traces endpoint. Takes `application/x-protobuf` or `application/json` (OTLP JSON: hex ids in either case,',
    'int64 as a string or a number, unknown fields ignored), `Content-Encoding: gzip` or identity, up to 20 MiB on the wire and decompressed.',
    'Only a project-scoped key of a member or admin may send spans (a viewer\'s key is 403); they land in its project. A 200 means every accepted span is committed to the analytics store;',
    'spans that cannot be stored are counted in `partialSuccess`. Re-sent spans (same project, trace id and span id) are stored once.',
    'The response uses the request\'s encoding. Refusals of JSON requests carry the error body; refusals of protobuf requests carry a',
    '`google.rpc.Status` (protobuf) whose `code` is the gRPC code and whose `message` is `<error code>: <message>`.',
    'A full write queue answers 503 with `Retry-After`; OTLP exporters retry it.',
  ].join(' '),
  auth: 'key',
  rawBody: {
    contentTypes: ['application/x-protobuf', 'application/json'],
    maxBytes: TRACE_BODY_LIMIT_BYTES,
    description: 'An OTLP `ExportTraceServiceRequest`, protobuf or JSON; `Content-Encoding: gzip` accepted.',
  },
  status: 200,
  response: ExportTraceServiceResponseJson,
  responseMediaTypes: ['application/x-protobuf'],
  errorMediaTypes: {
    'application/x-protobuf': 'For protobuf requests: a google.rpc.Status whose message is `<error code>: <message>`.',
  },
  errors: {
    400: ['invalid_otlp'],
    403: ['not_permitted'],
    405: ['method_not_allowed'],
    413: ['payload_too_large'],
    415: ['unsupported_media_type'],
    503: ['unavailable'],
  },
});

export const getTrace = defineOperation({
  operationId: 'getTrace',
  method: 'get',
  path: '/api/traces/{traceId}',
  tag: 'Production conversations',
  summary: 'One trace as a span tree',
  description: 'Looked up in the credential\'s project, or across the organization for an org-wide credential; 404 otherwise.',
  auth: 'key',
  params: TraceIdParams,
  status: 200,
  response: TraceDetail,
  errors: { 404: ['not_found'] },
});

export const traceOperations = [ingestTraces, getTrace] as const;
