import Long from 'long';
import { google, opentelemetry } from './generated/otlp.js';
import './decode-protobuf.js';

const { ExportTraceServiceResponse } = opentelemetry.proto.collector.trace.v1;

/** gRPC status codes for HTTP refusals, as the OTLP/HTTP specification maps them. */
const GRPC_CODE_BY_HTTP: Record<number, number> = {
  400: 3, // INVALID_ARGUMENT
  401: 16, // UNAUTHENTICATED
  403: 7, // PERMISSION_DENIED
  404: 5, // NOT_FOUND
  405: 12, // UNIMPLEMENTED
  413: 8, // RESOURCE_EXHAUSTED
  415: 3,
  429: 8,
  500: 13, // INTERNAL
  503: 14, // UNAVAILABLE
};

/** The protobuf `ExportTraceServiceResponse`; `partialSuccess` only when spans were rejected. */
export function encodeProtobufResponse(rejected: number, errorMessage: string): Buffer {
  const message = rejected > 0 ? { partialSuccess: { rejectedSpans: Long.fromNumber(rejected), errorMessage } } : {};
  return Buffer.from(ExportTraceServiceResponse.encode(message).finish());
}

/** A `google.rpc.Status` refusal body: the gRPC code of the HTTP status, and `<error code>: <message>`. */
export function encodeStatus(httpStatus: number, code: string, message: string): Buffer {
  const grpcCode = GRPC_CODE_BY_HTTP[httpStatus] ?? (httpStatus >= 500 ? 13 : 3);
  return Buffer.from(google.rpc.Status.encode({ code: grpcCode, message: `${code}: ${message}`, details: [] }).finish());
}

/** Decodes a `google.rpc.Status` (tests and clients reading a refusal). */
export function decodeStatus(body: Uint8Array): { code: number; message: string } {
  const status = google.rpc.Status.decode(body);
  return { code: status.code, message: status.message };
}
