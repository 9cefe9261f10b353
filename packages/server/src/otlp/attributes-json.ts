import { type ProtoAnyValue, type ProtoKeyValue, protoAttributes, protoValue } from './attributes.js';
import type { Attributes } from './model.js';

/** Span attributes that name the session a span belongs to, strongest first (see conversations/README.md). */
export const SESSION_ATTRIBUTES = ['svc.session.id', 'gen_ai.conversation.id', 'conversation.id', 'session.id'] as const;
const SESSION_RANK = new Map<string, number>(SESSION_ATTRIBUTES.map((key, rank) => [key, rank]));

/** The session id a span names, if any. */
export function sessionIdOf(attributes: Attributes): string | null {
  for (const key of SESSION_ATTRIBUTES) {
    const value = attributes[key];
    if ((typeof value === 'string' && value !== '') || typeof value === 'number') return String(value);
  }
  return null;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Decoded protobuf KeyValues written straight to JSON text, the text
 * `JSON.stringify(protoAttributes(list))` gives, without building the object
 * first. Lists the object would reorder or collapse (a repeated key, a key
 * starting with a digit, `__proto__`) take that slower path, so the stored
 * text is the same either way. `sessionId` is the session the last list
 * written names (`sessionIdOf`).
 */
export class AttributeJsonWriter {
  sessionId: string | null = null;
  private readonly keys = new Map<string, string>();
  private readonly strings = new Map<string, string>();

  write(list: readonly ProtoKeyValue[] | null | undefined): string {
    this.sessionId = null;
    if (!list || list.length === 0) return '{}';
    let json = '{';
    let sessionRank: number = SESSION_ATTRIBUTES.length;
    for (let i = 0; i < list.length; i++) {
      const kv = list[i]!;
      const key = kv.key;
      if (!key) continue;
      const first = key.charCodeAt(0);
      if ((first >= 48 && first <= 57) || key === '__proto__' || repeated(list, i, key)) return this.slow(list);
      const value = kv.value as ProtoAnyValue | null | undefined;
      const rank = SESSION_RANK.get(key);
      if (rank !== undefined && rank < sessionRank) {
        // sessionIdOf's rule on the stored value: a non-empty string or a number.
        const stored = value?.stringValue ?? protoValue(value);
        if ((typeof stored === 'string' && stored !== '') || typeof stored === 'number') {
          this.sessionId = String(stored);
          sessionRank = rank;
        }
      }
      if (json.length > 1) json += ',';
      const text = value?.stringValue;
      json += this.keyJson(key) + (text != null ? this.stringJson(text) : valueJson(value));
    }
    return json + '}';
  }

  /** `"key":` for a key, memoized: the same few keys repeat on every span. */
  private keyJson(key: string): string {
    let out = this.keys.get(key);
    if (out === undefined) {
      out = `${JSON.stringify(key)}:`;
      if (this.keys.size > 10_000) this.keys.clear();
      this.keys.set(key, out);
    }
    return out;
  }

  /**
   * A string value as JSON. Short ones are memoized: a batch repeats the same
   * values (session, model, agent) on many spans, and `OtlpReader` hands them
   * over as one string object, whose hash V8 keeps, so the lookup is cheap.
   */
  private stringJson(value: string): string {
    if (value.length > 64) return JSON.stringify(value);
    let out = this.strings.get(value);
    if (out === undefined) {
      out = JSON.stringify(value);
      if (this.strings.size > 10_000) this.strings.clear();
      this.strings.set(value, out);
    }
    return out;
  }

  private slow(list: readonly ProtoKeyValue[]): string {
    const attributes = protoAttributes(list);
    this.sessionId = sessionIdOf(attributes);
    return JSON.stringify(attributes);
  }
}

function repeated(list: readonly ProtoKeyValue[], i: number, key: string): boolean {
  for (let j = 0; j < i; j++) if (list[j]!.key === key) return true;
  return false;
}

/** An int64 as `int64Value` stores it: a number when exact, else a decimal string. */
function intNumber(value: bigint): number | string {
  return value <= MAX_SAFE && value >= -MAX_SAFE ? Number(value) : value.toString();
}

function valueJson(v: ProtoAnyValue | null | undefined): string {
  if (!v) return 'null';
  if (v.stringValue != null) return JSON.stringify(v.stringValue);
  if (v.boolValue != null) return v.boolValue ? 'true' : 'false';
  if (typeof v.intValue === 'bigint') return JSON.stringify(intNumber(v.intValue));
  if (v.doubleValue != null && v.intValue == null) return JSON.stringify(v.doubleValue);
  // Arrays, nested lists and bytes are rare: the object path writes them.
  return JSON.stringify(protoValue(v));
}
