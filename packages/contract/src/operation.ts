import type { z } from 'zod';
import type { ErrorCode, ErrorStatus } from './errors.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Which credentials an operation accepts.
 * - `none`: public (health, OpenAPI document)
 * - `key`: bearer API key only (`/api` paths, trace ingest)
 * - `key_or_session`: bearer key or the `svc.session_token` cookie (`/v1` paths)
 */
export type AuthMode = 'none' | 'key' | 'key_or_session';

export type SuccessStatus = 200 | 201 | 204;

/** A request body that is not JSON and is read by the handler itself (OTLP). */
export interface RawBodySpec {
  contentTypes: readonly string[];
  maxBytes: number;
  description: string;
}

/** A response header documented in OpenAPI. */
export interface HeaderSpec {
  description: string;
  schema: { type: 'string' | 'integer' };
}

/**
 * One HTTP operation of the interface: the single definition that drives the
 * server's validation, the SDK's calls and the OpenAPI document.
 */
export interface Operation {
  readonly operationId: string;
  readonly method: HttpMethod;
  /** OpenAPI-style path, e.g. `/api/keys/{apiKeyId}/revoke`. */
  readonly path: string;
  readonly summary: string;
  readonly description?: string;
  readonly tag: string;
  readonly auth: AuthMode;
  readonly params?: z.ZodObject;
  readonly query?: z.ZodObject;
  /** Request headers the operation reads (lower-case names; other headers pass through). */
  readonly headers?: z.ZodObject;
  readonly body?: z.ZodType;
  /**
   * For operations whose body is a few small fields: the largest body read, in
   * bytes. A larger one is refused as 400 `invalid_request` (no 413 response).
   */
  readonly smallBodyBytes?: number;
  readonly rawBody?: RawBodySpec;
  readonly status: SuccessStatus;
  /** Response schema; absent for 204 and for non-JSON responses. */
  readonly response?: z.ZodType;
  /** Non-JSON success responses, by media type (OTLP protobuf). */
  readonly responseMediaTypes?: readonly string[];
  readonly successHeaders?: Readonly<Record<string, HeaderSpec>>;
  /** Extra media types of error bodies, with what they carry (OTLP protobuf requests get a google.rpc.Status). */
  readonly errorMediaTypes?: Readonly<Record<string, string>>;
  /** Responses other than success and errors that carry their own body (e.g. health's 503). */
  readonly otherResponses?: Readonly<Record<number, { description: string; schema: z.ZodType }>>;
  /** Operation-specific refusals and the codes each may carry. Common ones are added by `commonErrors`. */
  readonly errors?: Readonly<Partial<Record<ErrorStatus, readonly ErrorCode[]>>>;
}

/** Declares an operation, keeping its literal types for the server and the SDK. */
export function defineOperation<const T extends Operation>(operation: T): T {
  return operation;
}

type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;
type InferIn<S> = S extends z.ZodType ? z.input<S> : undefined;

/** Parsed path parameters of an operation. */
export type ParamsOf<T extends Operation> = Infer<T['params']>;
/** Parsed query of an operation (defaults applied). */
export type QueryOf<T extends Operation> = Infer<T['query']>;
/** Parsed request headers of an operation. */
export type HeadersOf<T extends Operation> = Infer<T['headers']>;
/** Parsed body of an operation. */
export type BodyOf<T extends Operation> = Infer<T['body']>;
/** What a client sends as the query. */
export type QueryInputOf<T extends Operation> = InferIn<T['query']>;
/** What a client sends as the body. */
export type BodyInputOf<T extends Operation> = InferIn<T['body']>;
/** The success body of an operation. */
export type ResponseOf<T extends Operation> = Infer<T['response']>;

/**
 * The refusals every operation can produce, derived from how it is declared:
 * authenticated operations add 401/403/429, inputs add 400 (and 413/422 for bodies).
 */
export function commonErrors(op: Operation): Partial<Record<ErrorStatus, ErrorCode[]>> {
  const errors: Partial<Record<ErrorStatus, ErrorCode[]>> = {};
  const add = (status: ErrorStatus, ...codes: ErrorCode[]) => {
    const list = (errors[status] ??= []);
    for (const code of codes) if (!list.includes(code)) list.push(code);
  };
  if (op.params || op.query || op.headers) add(400, 'invalid_request');
  if (op.body) {
    add(400, 'invalid_request');
    if (op.smallBodyBytes === undefined) add(413, 'payload_too_large');
    add(422, 'validation_failed');
  }
  if (op.auth !== 'none') {
    add(401, 'not_authenticated');
    add(403, 'not_permitted');
    add(429, 'too_many_requests');
  }
  add(500, 'internal_error');
  for (const [status, codes] of Object.entries(op.errors ?? {})) {
    add(Number(status) as ErrorStatus, ...(codes as ErrorCode[]));
  }
  return errors;
}

/** Fills `{name}` segments of an OpenAPI path with URL-encoded values. */
export function buildPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter "${name}" for ${template}`);
    return encodeURIComponent(value);
  });
}
