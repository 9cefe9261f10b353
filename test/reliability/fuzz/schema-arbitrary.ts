import fc from 'fast-check';

/** A JSON Schema node of the OpenAPI document (2020-12, as the contract emits it). */
export type JsonSchema = Record<string, any>;

/** Ids and names of real resources, so generated requests reach past the lookups into the handlers. */
export interface IdPool {
  /** Every known id, by prefix (`tst_`, `tstv_`, `agt_` ...). */
  byPrefix: Record<string, string[]>;
  /** Project ids and names. */
  projects: string[];
  /** Any other string that should come up now and then (a platform key, a provider name). */
  words: string[];
}

/** Strings that break naive handlers: control characters, NUL, lone surrogates, right-to-left, combining marks, emoji. */
export const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDFFFy',
  '\uDBFF\uDC00\uD800',
  '\u202Eevil',
  'e\u0301\u0301\u0301',
  '🙂🙂🙂',
  '\r\n\t',
  '../../etc/passwd',
  '%00%ZZ%',
  "'; DROP TABLE tests; --",
  '${jndi:ldap://127.0.0.1/a}',
  '__proto__',
  'constructor',
  'NaN',
  '-0',
  '1e400',
];

/** Numbers at the edges: negative, zero, fractions, beyond 2^53, the largest double. */
export const NASTY_NUMBERS = [-1, 0, -0, 0.5, -2147483649, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e21, 1.7976931348623157e308, Number.MIN_VALUE];

/** A value of a type other than the schema's own (or of any type when it has none). */
export const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.constantFrom(...NASTY_NUMBERS),
  fc.constantFrom(...NASTY_STRINGS),
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);

/** Strings of every kind: printable, full unicode (lone surrogates included), nasty constants. */
export const anyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 20 }) },
  { weight: 2, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
);

/** Depths of the nested arrays and objects sent where any JSON value is allowed. */
const DEEP_DEPTHS = [40, 71, 5_000, 100_001];

/** A string the serializer replaces by arrays or objects nested `depth` deep (JSON.stringify would recurse that deep). */
export const deepMarker = (depth: number) => `@@DEEP:${depth}@@`;

/** JSON text with every deep marker replaced by its nesting: arrays for even depths, objects for odd ones. */
export function expandDeepMarkers(json: string): string {
  return json.replace(/"@@DEEP:(\d+)@@"/g, (_, d: string) => {
    const depth = Number(d);
    return depth % 2 === 0 ? '['.repeat(depth) + '0' + ']'.repeat(depth) : '{"a":'.repeat(depth) + '0' + '}'.repeat(depth);
  });
}

/** Resolves `$ref`s against `components.schemas`. */
export function resolver(document: JsonSchema): (schema: JsonSchema) => JsonSchema {
  const schemas = (document.components?.schemas ?? {}) as Record<string, JsonSchema>;
  return (schema) => {
    let s = schema;
    for (let i = 0; s?.$ref && i < 10; i++) s = schemas[String(s.$ref).split('/').pop()!] ?? {};
    return s ?? {};
  };
}

/**
 * An arbitrary of values that mostly satisfy `schema` (ids drawn from the
 * pool, so lookups find real resources), used as the base that the
 * mutations then break. Bounded: arrays of at most 3 items, objects of the
 * schema's properties, recursion cut at depth 6.
 */
export function validValue(schema: JsonSchema, resolve: (s: JsonSchema) => JsonSchema, pool: IdPool, name = '', depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  if (depth > 6) return fc.constant(null);
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const branches = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (branches?.length) return fc.oneof(...branches.map((b) => validValue(b, resolve, pool, name, depth + 1)));
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  switch (type) {
    case 'string':
      return validString(s, pool, name);
    case 'integer':
    case 'number': {
      const min = typeof s.minimum === 'number' ? s.minimum : -1000;
      const max = typeof s.maximum === 'number' ? Math.min(s.maximum, min + 1000) : min + 1000;
      return fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
    }
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const minLength = Math.min(s.minItems ?? 0, 3);
      return fc.array(validValue(s.items ?? {}, resolve, pool, name, depth + 1), { minLength, maxLength: Math.max(minLength, Math.min(s.maxItems ?? 3, 3)) });
    }
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, JsonSchema>;
      if (Object.keys(props).length === 0 && s.additionalProperties && typeof s.additionalProperties === 'object') {
        return fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), validValue(s.additionalProperties, resolve, pool, name, depth + 1), { maxKeys: 3 });
      }
      const model = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, validValue(v, resolve, pool, k, depth + 1)]));
      return fc.record(model, { requiredKeys: ((s.required ?? []) as string[]).filter((k) => k in model) });
    }
    default:
      // No type: any JSON value (mock tool answers, free-form config), now and then nested past any sane depth.
      return fc.oneof({ weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }) }, { weight: 1, arbitrary: fc.constantFrom(...DEEP_DEPTHS).map(deepMarker) });
  }
}

/** Field and parameter names whose values are ids of one kind. */
const NAME_PREFIX: Record<string, string> = {
  testId: 'tst_', testIds: 'tst_', versionId: 'tstv_', test_versions: 'tstv_', personaId: 'prs_', suiteId: 'sut_',
  agentId: 'agt_', agent_id: 'agt_', connectionId: 'con_', connection_id: 'con_', runId: 'run_', apiKeyId: 'key_',
  userId: 'usr_', failureId: 'imf_', conversationId: 'cnv_', project_id: 'prj_',
};

function validString(s: JsonSchema, pool: IdPool, name: string): fc.Arbitrary<string> {
  if (name === 'traceId') return fc.oneof(fc.constant(pool.words[0]!), fc.stringMatching(/^[0-9a-f]{32}$/));
  const prefix = /^\^([a-z]+_)/.exec(String(s.pattern ?? ''))?.[1] ?? NAME_PREFIX[name];
  if (prefix) return fc.oneof(fc.constantFrom(...(pool.byPrefix[prefix] ?? [`${prefix}missing`])), fc.string({ maxLength: 12 }).map((x) => prefix + x));
  if (s.format === 'date-time') return fc.date({ min: new Date(0), max: new Date(4102444800000), noInvalidDate: true }).map((d) => d.toISOString());
  if (s.format === 'email' || /email/i.test(name)) return fc.emailAddress();
  if (/^(project|projectId)$/.test(name)) return fc.constantFrom(...pool.projects);
  if (/(Id|_id|Ids)$/.test(name) || name === 'cursor' || name === 'pageToken' || name === 'after') {
    const ids = Object.values(pool.byPrefix).flat();
    return fc.oneof(fc.constantFrom(...ids), fc.string({ minLength: 1, maxLength: 12 }));
  }
  const minLength = s.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(s.maxLength ?? 40, 40));
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength, maxLength }).filter((x) => !/[\u0000-\u001f]/.test(x)) },
    { weight: 1, arbitrary: fc.constantFrom(...pool.words) },
  );
}
