import fc from 'fast-check';
import { type IdPool, type JsonSchema, NASTY_NUMBERS, anyString, deepMarker, expandDeepMarkers, resolver, validValue, wrongType } from './schema-arbitrary.js';

/** One generated request: what to send and a label of how it was made (for the figures and failure reports). */
export interface FuzzCase {
  operation: string;
  mutation: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** Tokens replaced in the serialized body by text JSON.stringify cannot produce (deep nesting, out-of-range numbers). */
const RAW_TEXT = fc.oneof(
  fc.constantFrom('1e999', '-1e999', '123456789012345678901234567890', '0.0000000000000000000000000001', '-0').map((t) => ({ label: `number ${t}`, text: t })),
  fc.constantFrom('"\\ud800"', '"\\udfff\\ud800"', '"\\u0000"', '"a\\u0000\\u0000b"').map((t) => ({ label: 'escaped surrogate/NUL', text: t })),
);
const PLACEHOLDER = '@@RAW@@';

/** Huge strings: past field limits, past the 1 MiB JSON body limit, multi-byte. */
const HUGE = fc.constantFrom(5_000, 70_000, 1_200_000).chain((n) => fc.constantFrom('a', 'é', '🙂').map((c) => ({ label: `huge string ${n}x${c.length > 1 ? 'emoji' : c}`, value: c.repeat(n) })));

type Mutation = { label: string; value: unknown; raw?: string };

/** Every path into a JSON value (object keys and array indexes), the root included as []. */
function pathsOf(value: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = [], depth = 0): (string | number)[][] {
  out.push(prefix);
  if (depth > 5 || value === null || typeof value !== 'object') return out;
  for (const [k, v] of Object.entries(value)) pathsOf(v, [...prefix, Array.isArray(value) ? Number(k) : k], out, depth + 1);
  return out;
}

/** A copy of `value` with the node at `path` replaced (or deleted for `undefined`). */
function setAt(value: unknown, path: (string | number)[], next: unknown): unknown {
  if (path.length === 0) return next;
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) };
  const [head, ...rest] = path;
  if (rest.length === 0 && next === undefined) {
    if (Array.isArray(copy)) copy.splice(head as number, 1);
    else delete copy[head!];
  } else copy[head!] = setAt(copy[head!], rest, next);
  return copy;
}

/** Breaks a (mostly) valid value: a field removed, added, or replaced with a wrong type, a huge or nasty string, an edge number, deep nesting. */
function mutate(base: unknown): fc.Arbitrary<Mutation> {
  const paths = pathsOf(base);
  const at = fc.constantFrom(...paths);
  const inner = paths.filter((p) => p.length > 0);
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant({ label: 'valid', value: base }) },
    ...(inner.length ? [{ weight: 2, arbitrary: fc.constantFrom(...inner).map((p) => ({ label: 'field removed', value: setAt(base, p, undefined) })) }] : []),
    { weight: 2, arbitrary: fc.tuple(at, fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('__proto__', 'constructor', 'id', 'organization_id')), wrongType).map(([p, k, v]) => ({ label: 'field added', value: setAt(base, [...p, k], v) })) },
    { weight: 3, arbitrary: fc.tuple(at, wrongType).map(([p, v]) => ({ label: 'wrong type', value: setAt(base, p, v) })) },
    { weight: 3, arbitrary: fc.tuple(at, anyString).map(([p, v]) => ({ label: 'unicode string', value: setAt(base, p, v) })) },
    { weight: 2, arbitrary: fc.tuple(at, fc.constantFrom(...NASTY_NUMBERS)).map(([p, v]) => ({ label: 'edge number', value: setAt(base, p, v) })) },
    { weight: 1, arbitrary: fc.tuple(at, HUGE).map(([p, h]) => ({ label: h.label, value: setAt(base, p, h.value) })) },
    { weight: 2, arbitrary: fc.tuple(at, RAW_TEXT).map(([p, r]) => ({ label: r.label, value: setAt(base, p, PLACEHOLDER), raw: r.text })) },
    { weight: 1, arbitrary: fc.tuple(at, fc.constantFrom(64, 65, 10_000, 100_001)).map(([p, d]) => ({ label: `deep nesting ${d}`, value: setAt(base, p, deepMarker(d)) })) },
  );
}

/** Whole-body breakage that no JSON value expresses: bad syntax, wrong media type, truncation, a BOM. */
const BODY_TEXT = fc.constantFrom(
  { label: 'invalid json', text: '{"name": ', type: 'application/json' },
  { label: 'trailing garbage', text: '{} {}', type: 'application/json' },
  { label: 'bom', text: '\uFEFF{}', type: 'application/json' },
  { label: 'text/plain', text: '{}', type: 'text/plain' },
  { label: 'no content type', text: '{}', type: '' },
  { label: 'form', text: 'a=1&b=2', type: 'application/x-www-form-urlencoded' },
  { label: 'json null', text: 'null', type: 'application/json' },
  { label: 'json string', text: '"x"', type: 'application/json' },
  { label: 'vendor json', text: '[]', type: 'application/vnd.api+json; charset=latin1' },
  { label: 'nul bytes', text: '\u0000\u0000\u0000', type: 'application/json' },
);

/** Percent-encodes a string's UTF-8 bytes (lone surrogates become U+FFFD, where encodeURIComponent would throw). */
export function pct(value: string): string {
  return [...Buffer.from(value, 'utf8')].map((b) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
}

/** A path parameter: a real id mostly, else garbage, huge, or an encoding the router must survive. */
function pathParam(name: string, schema: JsonSchema, resolve: (s: JsonSchema) => JsonSchema, pool: IdPool): fc.Arbitrary<string> {
  const valid = validValue(schema, resolve, pool, name).map((v) => pct(String(v)));
  return fc.oneof(
    { weight: 5, arbitrary: valid },
    { weight: 2, arbitrary: anyString.filter((x) => x.length > 0).map(pct) },
    { weight: 1, arbitrary: fc.constantFrom('%', '%ZZ', '%C0%AF', '%ED%A0%80', '%00', '..%2F..', 'a%2Fb', '%F0%9F', 'x'.repeat(5000)) },
  );
}

/** Query pairs: the declared parameters (mostly valid), then extras, duplicates, wrong values. */
function queryPairs(params: JsonSchema[], resolve: (s: JsonSchema) => JsonSchema, pool: IdPool): fc.Arbitrary<{ label: string; pairs: [string, string][] }> {
  const declared = params.filter((p) => p.in === 'query');
  const tame = (p: JsonSchema) => (p.name === 'wait' ? fc.constantFrom('0', '1') : validValue(p.schema, resolve, pool, p.name).map((v) => String(v)));
  const base = fc.tuple(...declared.map((p) => fc.option(tame(p), { freq: p.required ? 20 : 2 }))).map((values) =>
    declared.flatMap((p, i) => (values[i] === null ? [] : [[p.name, values[i]!] as [string, string]])),
  );
  const value = fc.oneof(anyString, fc.constantFrom(...NASTY_NUMBERS.map(String)), fc.constant('x'.repeat(3000)));
  return base.chain((pairs) => {
    const names = declared.map((p) => p.name as string);
    return fc.oneof(
      { weight: 4, arbitrary: fc.constant({ label: 'query valid', pairs }) },
      { weight: 2, arbitrary: fc.tuple(fc.string({ minLength: 1, maxLength: 8 }), value).map(([k, v]) => ({ label: 'query extra', pairs: [...pairs, [k, v] as [string, string]] })) },
      ...(names.length
        ? [
            { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...names), value).map(([k, v]) => ({ label: 'query duplicated', pairs: [...pairs, [k, v] as [string, string], [k, v] as [string, string]] })) },
            { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...names), value).map(([k, v]) => ({ label: 'query bad value', pairs: [...pairs.filter(([n]) => n !== k), [k, v] as [string, string]] })) },
          ]
        : []),
    );
  });
}

/** All request cases of one operation of the OpenAPI document. */
export function operationCases(document: JsonSchema, method: string, template: string, op: JsonSchema, pool: IdPool): fc.Arbitrary<FuzzCase> {
  const resolve = resolver(document);
  const params = (op.parameters ?? []) as JsonSchema[];
  const pathArbs = Object.fromEntries(params.filter((p) => p.in === 'path').map((p) => [p.name, pathParam(p.name, p.schema, resolve, pool)]));
  const path = fc.record(pathArbs).map((values: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_, n: string) => values[n] ?? ''));
  const query = queryPairs(params, resolve, pool).map(({ label, pairs }) => ({ label, text: pairs.map(([k, v]) => `${pct(k)}=${pct(v)}`).join('&') }));
  // Header values must be byte strings for fetch: printable ASCII of any length, empty, or an unsafe request id.
  const headerValue = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('', 'x'.repeat(300), 'a b', '../x'));
  const declaredHeaders = Object.fromEntries(params.filter((p) => p.in === 'header').map((p) => [p.name, headerValue]));
  const headers = fc.record({ 'x-request-id': headerValue, ...declaredHeaders }, { requiredKeys: [] });
  const schema = op.requestBody?.content?.['application/json']?.schema as JsonSchema | undefined;
  const body: fc.Arbitrary<{ label: string; text?: string; type?: string }> = schema
    ? fc.oneof(
        { weight: 9, arbitrary: validValue(schema, resolve, pool).chain(mutate).map((m) => ({ label: m.label, text: expandDeepMarkers(JSON.stringify(m.value)?.replace(`"${PLACEHOLDER}"`, m.raw ?? '') ?? ''), type: 'application/json' })) },
        { weight: 1, arbitrary: BODY_TEXT },
      )
    : fc.oneof({ weight: 9, arbitrary: fc.constant({ label: 'no body' }) }, { weight: 1, arbitrary: BODY_TEXT });
  return fc.tuple(path, query, headers, body).map(([p, q, h, b]) => ({
    operation: `${method.toUpperCase()} ${template}`,
    mutation: b.label === 'valid' || b.label === 'no body' ? q.label : b.label,
    method: method.toUpperCase(),
    path: q.text ? `${p}?${q.text}` : p,
    headers: { ...(h as Record<string, string>), ...(b.type ? { 'content-type': b.type } : {}) },
    ...(b.text !== undefined && method !== 'get' ? { body: b.text } : {}),
  }));
}
