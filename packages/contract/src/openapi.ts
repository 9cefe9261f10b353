import { z } from 'zod';
import { ErrorBody, type ErrorStatus } from './errors.js';
import { commonErrors, type Operation } from './operation.js';

type JsonSchema = Record<string, unknown>;

/** Collects named zod schemas (`.meta({id})`) into `components.schemas`, keeping one name per distinct shape. */
class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};

  /** Converts a zod schema to JSON Schema 2020-12 with its named parts hoisted into components. */
  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
    delete json.$schema;
    const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
    delete json.$defs;
    const names = this.placeDefs(defs, io);
    const rewrite = (value: unknown) => rewriteRefs(value, names);
    for (const [name, def] of Object.entries(defs)) this.schemas[names[name]!] ??= rewrite(def) as JsonSchema;
    return rewrite(json) as JsonSchema;
  }

  /** Chooses the component name of each def: its id, or `<id>Input` when the request shape differs. */
  private placeDefs(defs: Record<string, JsonSchema>, io: 'input' | 'output'): Record<string, string> {
    const names: Record<string, string> = Object.fromEntries(Object.keys(defs).map((n) => [n, n]));
    for (let changed = true; changed; ) {
      changed = false;
      for (const [name, def] of Object.entries(defs)) {
        const existing = this.schemas[names[name]!];
        if (existing && JSON.stringify(existing) !== JSON.stringify(rewriteRefs(def, names))) {
          if (names[name] !== name) throw new Error(`schema ${name} has more than two shapes`);
          names[name] = io === 'input' ? `${name}Input` : `${name}Output`;
          changed = true;
        }
      }
    }
    return names;
  }
}

function rewriteRefs(value: unknown, names: Record<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => rewriteRefs(v, names));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/')) {
        const name = v.slice('#/$defs/'.length);
        out[k] = `#/components/schemas/${names[name] ?? name}`;
      } else out[k] = rewriteRefs(v, names);
    }
    return out;
  }
  return value;
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK', 201: 'Created', 204: 'No content', 400: 'Malformed or invalid request', 401: 'Missing or unrecognisable credential',
  403: 'Credential lacks permission', 404: 'Absent or invisible to the credential', 405: 'Method not allowed', 409: 'Conflict',
  413: 'Body too large', 415: 'Unsupported media type', 422: 'Body readable but not actionable', 429: 'Rate limit exceeded',
  500: 'Unexpected failure', 503: 'Service, store or provider unavailable',
};

function parameters(op: Operation, components: SchemaComponents): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const [where, schema] of [['path', op.params], ['query', op.query], ['header', op.headers]] as const) {
    if (!schema) continue;
    const json = components.convert(schema, 'input');
    const props = (json.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((json.required ?? []) as string[]);
    for (const [name, prop] of Object.entries(props)) {
      const { description, ...rest } = prop;
      out.push({ name, in: where, required: where === 'path' || required.has(name), ...(description ? { description } : {}), schema: rest });
    }
  }
  return out;
}

function errorResponse(status: ErrorStatus, codes: readonly string[], authed: boolean, extraMedia: Readonly<Record<string, string>> = {}): JsonSchema {
  const schema = codes.length
    ? { allOf: [{ $ref: '#/components/schemas/ErrorBody' }, { type: 'object', properties: { error: { enum: [...codes] } } }] }
    : { $ref: '#/components/schemas/ErrorBody' };
  const headers: JsonSchema = { 'x-request-id': { $ref: '#/components/headers/RequestId' } };
  if (status === 429 || status === 503) headers['Retry-After'] = { $ref: '#/components/headers/RetryAfter' };
  if (authed && status === 429) Object.assign(headers, rateLimitHeaders());
  const described = codes.length ? ` Codes: ${codes.map((c) => `\`${c}\``).join(', ')}.` : '';
  return {
    description: `${STATUS_TEXT[status] ?? 'Error'}.${described}`,
    headers,
    content: {
      'application/json': { schema },
      ...Object.fromEntries(Object.entries(extraMedia).map(([type, description]) => [type, { schema: { type: 'string', format: 'binary', description } }])),
    },
    'x-error-codes': [...codes],
  };
}

function rateLimitHeaders(): JsonSchema {
  return {
    'RateLimit-Policy': { $ref: '#/components/headers/RateLimitPolicy' },
    RateLimit: { $ref: '#/components/headers/RateLimit' },
  };
}

function operationObject(op: Operation, components: SchemaComponents): JsonSchema {
  const authed = op.auth !== 'none';
  const responses: JsonSchema = {};
  const successHeaders: JsonSchema = { 'x-request-id': { $ref: '#/components/headers/RequestId' } };
  if (authed) Object.assign(successHeaders, rateLimitHeaders());
  for (const [name, spec] of Object.entries(op.successHeaders ?? {})) successHeaders[name] = spec;
  const success: JsonSchema = { description: STATUS_TEXT[op.status], headers: successHeaders };
  if (op.response) success.content = { 'application/json': { schema: components.convert(op.response, 'output') } };
  if (op.responseMediaTypes) {
    const content = (success.content ??= {}) as JsonSchema;
    for (const type of op.responseMediaTypes) content[type] ??= { schema: { type: 'string', format: 'binary' } };
  }
  responses[String(op.status)] = success;
  for (const [status, other] of Object.entries(op.otherResponses ?? {})) {
    responses[status] = {
      description: other.description,
      headers: { 'x-request-id': { $ref: '#/components/headers/RequestId' } },
      content: { 'application/json': { schema: components.convert(other.schema, 'output') } },
    };
  }
  const errors = commonErrors(op);
  for (const status of Object.keys(errors).map(Number).sort() as ErrorStatus[]) {
    responses[String(status)] = errorResponse(status, errors[status] ?? [], authed, op.errorMediaTypes);
  }
  const object: JsonSchema = {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    security: op.auth === 'none' ? [] : op.auth === 'key' ? [{ bearerAuth: [] }] : [{ bearerAuth: [] }, { sessionCookie: [] }],
    responses,
  };
  const params = parameters(op, components);
  if (params.length) object.parameters = params;
  if (op.body) {
    object.requestBody = { required: true, content: { 'application/json': { schema: components.convert(op.body, 'input') } } };
  } else if (op.rawBody) {
    const content: JsonSchema = {};
    for (const type of op.rawBody.contentTypes) content[type] = { schema: { type: 'string', format: 'binary' } };
    object.requestBody = { required: true, description: op.rawBody.description, content };
  }
  return object;
}

/** Builds the OpenAPI 3.1.0 document of the interface from the route table. */
export function buildOpenApiDocument(operations: readonly Operation[]): JsonSchema {
  const components = new SchemaComponents();
  components.convert(ErrorBody, 'output');
  const paths: Record<string, JsonSchema> = {};
  for (const op of operations) {
    const item = (paths[op.path] ??= {});
    if (item[op.method]) throw new Error(`duplicate operation ${op.method.toUpperCase()} ${op.path}`);
    item[op.method] = operationObject(op, components);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'svc — voice-agent testing and monitoring',
      version: '1.0.0',
      description:
        'Operations under /v1 take camelCase; /api takes snake_case. Every refusal carries `{error, message, details?}`; `error` is a stable code. JSON request bodies are read up to 1 MiB (413 `payload_too_large` beyond) and 64 levels of nested arrays and objects (400 `invalid_request` beyond).',
    },
    servers: [{ url: '/' }],
    tags: [...new Set(operations.map((o) => o.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: components.schemas,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'API key `svc_sk_...`' },
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: 'svc.session_token',
          description: 'Browser session (on HTTPS deployments `__Secure-svc.session_token`); /v1 operations only',
        },
      },
      headers: {
        RequestId: { description: 'Echo of the request\'s `x-request-id`, or a generated one', schema: { type: 'string' } },
        RetryAfter: { description: 'Whole seconds to wait before retrying (at least 1)', schema: { type: 'integer', minimum: 1 } },
        RateLimitPolicy: { description: 'IETF RateLimit policy, e.g. `"org";q=600;w=60`', schema: { type: 'string' } },
        RateLimit: { description: 'IETF RateLimit state, e.g. `"org";r=599;t=42`', schema: { type: 'string' } },
      },
    },
  };
}
