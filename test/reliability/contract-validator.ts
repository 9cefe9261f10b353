import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { RecordedResponse } from '../../packages/server/src/http/response-recorder.js';
import { decodeExportResponse, decodeStatus } from '../helpers/otlp.js';

/** One line of the server's test-only response recorder (`SVC_RECORD_RESPONSES`). */
export type { RecordedResponse };

// ajv-formats is CommonJS: its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => void;

type Json = Record<string, any>;

const COMPONENTS_ID = 'svc-components.json';

/** Points `#/components/schemas/X` at the registered components document. */
function rebase(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rebase);
  if (value && typeof value === 'object') {
    const out: Json = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/') ? `${COMPONENTS_ID}#/$defs/${v.slice(21)}` : rebase(v);
    }
    return out;
  }
  return value;
}

/**
 * Validates recorded responses against an OpenAPI 3.1 document: the status
 * must be documented for the operation, the media type documented for that
 * status, and a JSON body must match the documented schema (the document
 * closes every object with `additionalProperties: false`, so undocumented
 * members fail as missing required ones do). Error bodies are checked against
 * ErrorBody narrowed to the status's documented codes (`x-error-codes`).
 */
export class ContractValidator {
  private readonly ajv = new Ajv2020({ strict: true, allErrors: true });
  private readonly operations = new Map<string, Json>();
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly errorBody: ValidateFunction;
  private readonly headerComponents: Record<string, Json>;

  constructor(document: Json) {
    addFormats(this.ajv);
    // zod writes `startsWith` as this format beside the `pattern` that enforces it.
    this.ajv.addFormat('starts_with', true);
    this.ajv.addSchema({ $id: COMPONENTS_ID, $defs: rebase(document.components.schemas) as Json });
    for (const [path, item] of Object.entries(document.paths as Json)) {
      for (const [method, op] of Object.entries(item as Json)) this.operations.set((op as Json).operationId, { ...(op as Json), method, path });
    }
    this.errorBody = this.ajv.compile({ $ref: `${COMPONENTS_ID}#/$defs/ErrorBody` });
    this.headerComponents = (document.components.headers ?? {}) as Record<string, Json>;
  }

  /** Every operation id of the document. */
  operationIds(): string[] {
    return [...this.operations.keys()];
  }

  /** Compiles every documented JSON response schema (fails early on a schema ajv cannot read). */
  compileAll(): number {
    let n = 0;
    for (const [id, op] of this.operations) {
      for (const [status, response] of Object.entries(op.responses as Json)) {
        if ((response as Json).content?.['application/json']) {
          this.schemaFor(id, status, (response as Json).content['application/json'].schema);
          n++;
        }
      }
    }
    return n;
  }

  private schemaFor(operationId: string, status: string, schema: unknown): ValidateFunction {
    const key = `${operationId} ${status}`;
    let fn = this.compiled.get(key);
    if (!fn) {
      fn = this.ajv.compile(rebase(schema) as Json);
      this.compiled.set(key, fn);
    }
    return fn;
  }

  /** The reasons a recorded response breaks the contract (empty when it keeps it). */
  check(rec: RecordedResponse): string[] {
    const operationId = rec.operationId ?? this.documentedElsewhere(rec);
    if (!operationId) return this.checkUnrouted(rec);
    const op = this.operations.get(operationId);
    if (!op) return [`operation ${operationId} is not in the document`];
    const responses = op.responses as Json;
    const statusKey = String(rec.status);
    const response = (responses[statusKey] ?? responses[`${statusKey[0]}XX`] ?? responses.default) as Json | undefined;
    if (!response) return [`status ${rec.status} is not documented (documented: ${Object.keys(responses).join(', ')})`];
    return [...this.checkHeaders(rec, response), ...this.checkBody({ ...rec, operationId }, response)];
  }

  /**
   * An operation of the request's path that documents the status of a request
   * no operation matched: OTLP's POST /v1/traces documents the 405 its path
   * answers to other methods, in its own format.
   */
  private documentedElsewhere(rec: RecordedResponse): string | undefined {
    for (const [id, op] of this.operations) {
      const pattern = new RegExp(`^${String(op.path).replace(/\{\w+\}/g, '[^/]+')}$`);
      if (pattern.test(rec.path) && (op.responses as Json)[String(rec.status)]) return id;
    }
    return undefined;
  }

  /**
   * Documented headers carry values of their schema; every response has its
   * request id; a 429 says when to retry (the interface's rule); an
   * authenticated success carries the RateLimit fields it documents.
   */
  private checkHeaders(rec: RecordedResponse, response: Json): string[] {
    if (!rec.headers) return ['no headers recorded'];
    const out: string[] = [];
    for (const [name, spec] of Object.entries((response.headers ?? {}) as Json)) {
      const value = rec.headers[name.toLowerCase()];
      const schema = (spec.$ref ? this.headerComponents[String(spec.$ref).split('/').pop()!] : spec)?.schema as Json | undefined;
      if (value === undefined) {
        const required = name === 'x-request-id' || (name === 'Retry-After' && rec.status === 429) || (/^RateLimit/.test(name) && rec.status < 400);
        if (required) out.push(`header ${name} is missing`);
      } else if (schema?.type === 'integer' && !(/^\d+$/.test(value) && (schema.minimum === undefined || Number(value) >= schema.minimum))) {
        out.push(`header ${name}: "${value}" is not an integer >= ${schema.minimum ?? 0}`);
      }
    }
    return out;
  }

  private checkBody(rec: RecordedResponse & { operationId: string }, response: Json): string[] {
    const content = response.content as Json | undefined;
    if (!content) return rec.body === null ? [] : [`status ${rec.status} documents no body, got ${rec.contentType}`];
    if (rec.body === null) return [`status ${rec.status} documents a body (${Object.keys(content).join(', ')}), got none`];
    if (!rec.contentType || !content[rec.contentType]) return [`media type ${rec.contentType} is not documented for ${rec.status} (documented: ${Object.keys(content).join(', ')})`];
    const codes = response['x-error-codes'] as string[] | undefined;
    if (rec.contentType === 'application/json') {
      const validate = this.schemaFor(rec.operationId, String(rec.status), content['application/json'].schema);
      if (!validate(rec.body)) return (validate.errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
      if (codes && !codes.includes((rec.body as Json).error)) return [`code ${(rec.body as Json).error} is not among ${codes.join(', ')}`];
      return [];
    }
    return this.checkBinary(rec, codes ?? []);
  }

  /** Protobuf bodies (OTLP): a success decodes as ExportTraceServiceResponse, a refusal as google.rpc.Status with a documented code. */
  private checkBinary(rec: RecordedResponse, codes: string[]): string[] {
    if (rec.contentType !== 'application/x-protobuf' || rec.bodyEncoding !== 'base64') return [`cannot check a ${rec.contentType} body`];
    const bytes = Buffer.from(rec.body as string, 'base64');
    try {
      if (rec.status < 400) {
        decodeExportResponse(bytes);
        return [];
      }
      const { message } = decodeStatus(bytes);
      const code = message.split(':')[0]!;
      return codes.includes(code) ? [] : [`google.rpc.Status code "${code}" is not among ${codes.join(', ')}`];
    } catch (err) {
      return [`protobuf body does not decode: ${(err as Error).message}`];
    }
  }

  /**
   * A request no operation matched (an unknown path or method) can only be
   * refused: 404 `not_found` or 405 `method_not_allowed`, in the error body.
   */
  private checkUnrouted(rec: RecordedResponse): string[] {
    const code = rec.status === 404 ? 'not_found' : rec.status === 405 ? 'method_not_allowed' : null;
    if (!code) return [`unrouted request answered ${rec.status}`];
    if (rec.contentType !== 'application/json' || !this.errorBody(rec.body)) return [`unrouted refusal is not an error body: ${JSON.stringify(this.errorBody.errors)}`];
    return (rec.body as Json).error === code ? [] : [`unrouted ${rec.status} carries code ${(rec.body as Json).error}`];
  }
}
