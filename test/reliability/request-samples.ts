import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => void;

type Json = Record<string, any>;

/** The resources an operation can name; `project` is a project id or name. */
export type Kind = 'project' | 'apiKey' | 'user' | 'agent' | 'connection' | 'test' | 'testVersion' | 'persona' | 'suite' | 'run' | 'conversation' | 'trace' | 'failure';

/**
 * Where an operation names a project or a resource. `filter` slots narrow a
 * list (an id nobody can see just matches nothing); `lookup` slots must find
 * the resource; `reference` slots are ids a body points at.
 */
export interface Slot {
  where: 'path' | 'query' | 'body';
  name: string;
  kind: Kind;
  role: 'project' | 'lookup' | 'filter' | 'reference';
  array: boolean;
}

/** The ids one credential's requests are filled with. */
export type Values = Record<Kind, string>;

/** A request ready to send. */
export interface SampleRequest {
  operationId: string;
  method: string;
  path: string;
  body?: unknown;
  raw?: string;
  contentType?: string;
}

/** An operation of the document with what the matrix needs of it. */
export interface OperationInfo {
  operationId: string;
  method: string;
  template: string;
  auth: 'none' | 'key' | 'key_or_session';
  slots: Slot[];
  op: Json;
}

const PATH_KINDS: Record<string, Kind> = {
  apiKeyId: 'apiKey', userId: 'user', agentId: 'agent', connectionId: 'connection', testId: 'test', versionId: 'testVersion',
  personaId: 'persona', suiteId: 'suite', runId: 'run', conversationId: 'conversation', traceId: 'trace', failureId: 'failure',
};
const QUERY_SLOTS: Record<string, Pick<Slot, 'kind' | 'role'>> = {
  project: { kind: 'project', role: 'project' },
  projectId: { kind: 'project', role: 'project' },
  suiteId: { kind: 'suite', role: 'lookup' },
  agent_id: { kind: 'agent', role: 'filter' },
};
const BODY_SLOTS: Record<string, Pick<Slot, 'kind' | 'role'>> = {
  project: { kind: 'project', role: 'project' },
  project_id: { kind: 'project', role: 'project' },
  test_versions: { kind: 'testVersion', role: 'reference' },
  agent_id: { kind: 'agent', role: 'reference' },
  connection_id: { kind: 'connection', role: 'reference' },
  testIds: { kind: 'test', role: 'reference' },
  expected_version_id: { kind: 'testVersion', role: 'reference' },
  personas: { kind: 'persona', role: 'reference' },
};

/**
 * Values that the schemas alone cannot make meaningful: a catalog speech
 * pairing, an agent platform needing nothing else, a reachable-looking
 * connection. Everything else is generated from the schemas.
 */
const QUERY_OVERRIDES: Record<string, Record<string, string>> = {
  getPersonaCapabilities: { ttsProvider: 'openai', ttsModel: 'tts-1', sttProvider: 'deepgram', sttModel: 'nova-3' },
};
const BODY_OVERRIDES: Record<string, Json> = {
  registerAgent: { agentPlatform: 'custom' },
  createConnection: { connectionType: 'http_chat', config: { url: 'http://127.0.0.1:9/chat' } },
  addMember: { role: 'viewer' },
  updateMember: { role: 'viewer' },
};

/** Builds valid-looking requests for every operation of an OpenAPI document. */
export class RequestSamples {
  readonly operations: OperationInfo[] = [];
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private counter = 0;
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly document: Json) {
    addFormats(this.ajv);
    this.ajv.addFormat('starts_with', true);
    for (const [template, item] of Object.entries(document.paths as Json)) {
      for (const [method, op] of Object.entries(item as Json)) {
        const security = (op.security ?? []) as Json[];
        const auth = security.length === 0 ? 'none' : security.some((s) => s.sessionCookie) ? 'key_or_session' : 'key';
        this.operations.push({ operationId: op.operationId, method: method.toUpperCase(), template, auth, slots: this.slotsOf(op), op });
      }
    }
  }

  private resolve(schema: Json): Json {
    let s = schema;
    while (s?.$ref) s = this.document.components.schemas[String(s.$ref).split('/').pop()!];
    return s ?? {};
  }

  private bodySchema(op: Json): Json | undefined {
    const schema = op.requestBody?.content?.['application/json']?.schema;
    return schema ? this.resolve(schema) : undefined;
  }

  private slotsOf(op: Json): Slot[] {
    const slots: Slot[] = [];
    for (const p of (op.parameters ?? []) as Json[]) {
      if (p.in === 'path' && PATH_KINDS[p.name]) slots.push({ where: 'path', name: p.name, kind: PATH_KINDS[p.name]!, role: 'lookup', array: false });
      if (p.in === 'query' && QUERY_SLOTS[p.name]) slots.push({ where: 'query', name: p.name, ...QUERY_SLOTS[p.name]!, array: false });
    }
    const body = this.bodySchema(op);
    for (const [name, prop] of Object.entries((body?.properties ?? {}) as Json)) {
      const slot = BODY_SLOTS[name];
      if (slot) slots.push({ where: 'body', name, ...slot, array: this.resolve(prop).type === 'array' });
    }
    return slots;
  }

  /** A value the schema accepts; `name` hints at meaning (an email, a unique name). */
  sample(schema: Json, name = 'value'): unknown {
    const s = this.resolve(schema);
    if (s.const !== undefined) return s.const;
    if (s.enum) return s.enum[0];
    const options = (s.anyOf ?? s.oneOf) as Json[] | undefined;
    if (options) return this.sample(options.find((o) => this.resolve(o).type !== 'null') ?? options[0]!, name);
    if (s.allOf) return this.sample(s.allOf[0], name);
    switch (s.type) {
      case 'object': {
        const out: Json = {};
        for (const key of (s.required ?? []) as string[]) out[key] = this.sample(s.properties[key], key);
        return out;
      }
      case 'array':
        return Array.from({ length: Math.max(1, s.minItems ?? 0) }, () => this.sample(s.items ?? {}, name));
      case 'integer':
      case 'number':
        return Math.max(1, s.minimum ?? 1);
      case 'boolean':
        return false;
      default: {
        if (s.format === 'date-time') return new Date().toISOString();
        if (/email/i.test(name)) return `matrix-${++this.counter}@example.com`;
        // Printable ASCII without spaces, so even header-bound secrets (HeaderSecret's pattern) accept it.
        const text = `matrix-${name}-${++this.counter}`;
        return text.padEnd(s.minLength ?? 1, 'x');
      }
    }
  }

  /**
   * The request an operation gets with `values` in every slot, except
   * `substitute` (one slot given another value). Bodies are checked against
   * the operation's request schema, so a refusal can only come from who asks
   * and what the slot names, never from a malformed request.
   */
  build(info: OperationInfo, values: Values, substitute?: { slot: Slot; value: string }): SampleRequest {
    const valueOf = (slot: Slot) => (substitute && substitute.slot === slot ? substitute.value : values[slot.kind]);
    const params: Record<string, string> = {};
    const query = new URLSearchParams();
    for (const p of (info.op.parameters ?? []) as Json[]) {
      const slot = info.slots.find((s) => s.where === p.in && s.name === p.name);
      if (p.in === 'path') params[p.name] = slot ? valueOf(slot) : String(this.sample(p.schema, p.name));
      else if (p.in === 'query' && slot) query.set(p.name, valueOf(slot));
      else if (p.in === 'query' && p.required) query.set(p.name, QUERY_OVERRIDES[info.operationId]?.[p.name] ?? String(this.sample(p.schema, p.name)));
    }
    const path = info.template.replace(/\{(\w+)\}/g, (_, n: string) => encodeURIComponent(params[n]!)) + (query.size ? `?${query}` : '');
    const request: SampleRequest = { operationId: info.operationId, method: info.method, path };
    if (info.operationId === 'ingestTraces') return { ...request, raw: JSON.stringify({ resourceSpans: [] }), contentType: 'application/json' };
    const schema = this.bodySchema(info.op);
    if (!schema) return request;
    const body = { ...(this.sample(schema) as Json), ...structuredClone(BODY_OVERRIDES[info.operationId] ?? {}) };
    for (const slot of info.slots.filter((s) => s.where === 'body')) body[slot.name] = slot.array ? [valueOf(slot)] : valueOf(slot);
    let validate = this.validators.get(info.operationId);
    if (!validate) this.validators.set(info.operationId, (validate = this.ajv.compile(this.inline(info.op.requestBody.content['application/json'].schema))));
    if (!validate(body)) throw new Error(`the sample body of ${info.operationId} breaks its schema: ${this.ajv.errorsText(validate.errors)}`);
    return { ...request, body };
  }

  /** Inlines `#/components/schemas` references (request schemas are small and not recursive). */
  private inline(value: any): any {
    if (Array.isArray(value)) return value.map((v) => this.inline(v));
    if (value && typeof value === 'object') {
      if (typeof value.$ref === 'string') return this.inline(this.resolve(value));
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.inline(v)]));
    }
    return value;
  }
}
