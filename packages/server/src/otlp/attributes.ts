import type Long from 'long';
import type { AttrValue, Attributes } from './model.js';
import { OtlpDecodeError } from './model.js';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const ZERO_HEX = /^0+$/;

/**
 * An unsigned 64-bit protobuf value (fixed64) as an exact bigint: `OtlpReader`
 * reads them as bigints; an absent field is the generated default (0 or a Long).
 */
export function longToBigInt(value: bigint | Long | number | null | undefined): bigint {
  if (typeof value === 'bigint') return value;
  if (value === null || value === undefined) return 0n;
  if (typeof value === 'number') return BigInt(Math.trunc(value));
  return (BigInt(value.high >>> 0) << 32n) | BigInt(value.low >>> 0);
}

/** A signed int64 attribute: a number when it is exact as one, else a decimal string. */
function int64Value(value: bigint | Long | number | string): AttrValue {
  if (typeof value === 'number') return value;
  const big = typeof value === 'bigint' ? value : typeof value === 'string' ? BigInt(value) : BigInt.asIntN(64, longToBigInt(value));
  return big <= MAX_SAFE && big >= -MAX_SAFE ? Number(big) : big.toString();
}

/** Lowercase hex of an id of the expected byte length; null when the length is wrong or every byte is zero. */
export function idFromBytes(bytes: Uint8Array | null | undefined, length: number): string | null {
  if (!bytes || bytes.length !== length) return null;
  const hex = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
  return ZERO_HEX.test(hex) ? null : hex;
}

/** Lowercase hex of an OTLP/JSON id (hex in either case); null when absent, malformed or all zero. */
export function idFromHex(value: unknown, length: number): string | null {
  if (typeof value !== 'string' || value.length !== length * 2 || !/^[0-9a-fA-F]+$/.test(value)) return null;
  const hex = value.toLowerCase();
  return ZERO_HEX.test(hex) ? null : hex;
}

/**
 * Deepest nesting of array and kvlist attribute values accepted in OTLP/JSON.
 * Deeper is refused as undecodable: walking (and later serializing) an
 * unbounded depth would overflow the stack and fail the request with a 500.
 * (Protobuf needs no check: the decoder stops at protoc's limit of 100 nested messages.)
 */
export const MAX_ATTRIBUTE_DEPTH = 64;

function checkDepth(depth: number): void {
  if (depth > MAX_ATTRIBUTE_DEPTH) throw new OtlpDecodeError(`attribute values nest deeper than ${MAX_ATTRIBUTE_DEPTH} levels`);
}

export interface ProtoAnyValue {
  stringValue?: string | null;
  boolValue?: boolean | null;
  intValue?: bigint | Long | null;
  doubleValue?: number | null;
  arrayValue?: { values?: ProtoAnyValue[] | null } | null;
  kvlistValue?: { values?: ProtoKeyValue[] | null } | null;
  bytesValue?: Uint8Array | null;
}
export interface ProtoKeyValue {
  key?: string | null;
  value?: ProtoAnyValue | null;
}

/** One decoded protobuf AnyValue as stored. */
export function protoValue(v: ProtoAnyValue | null | undefined): AttrValue {
  if (!v) return null;
  if (v.stringValue != null) return v.stringValue;
  if (v.boolValue != null) return v.boolValue;
  if (v.intValue != null) return int64Value(v.intValue);
  if (v.doubleValue != null) return v.doubleValue;
  if (v.arrayValue != null) return (v.arrayValue.values ?? []).map(protoValue);
  if (v.kvlistValue != null) return protoAttributes(v.kvlistValue.values);
  if (v.bytesValue != null) return Buffer.from(v.bytesValue).toString('base64');
  return null;
}

/** Decoded protobuf KeyValues as a plain object. */
export function protoAttributes(list: readonly ProtoKeyValue[] | null | undefined): Attributes {
  const out: Attributes = {};
  if (!list) return out;
  for (const kv of list) if (kv.key) out[kv.key] = protoValue(kv.value);
  return out;
}

function jsonValue(v: unknown, depth: number): AttrValue {
  if (!v || typeof v !== 'object') return null;
  const o = v as Record<string, unknown>;
  if (typeof o.stringValue === 'string') return o.stringValue;
  if (typeof o.boolValue === 'boolean') return o.boolValue;
  if (o.intValue !== undefined && o.intValue !== null) {
    if (typeof o.intValue === 'number' || (typeof o.intValue === 'string' && /^-?\d+$/.test(o.intValue))) return int64Value(o.intValue);
    throw new OtlpDecodeError(`intValue must be an integer, got ${JSON.stringify(o.intValue)}`);
  }
  if (o.doubleValue !== undefined && o.doubleValue !== null) return Number(o.doubleValue);
  if (o.arrayValue && typeof o.arrayValue === 'object') {
    checkDepth(depth + 1);
    return jsonArray((o.arrayValue as { values?: unknown }).values).map((item) => jsonValue(item, depth + 1));
  }
  if (o.kvlistValue && typeof o.kvlistValue === 'object') return jsonAttributes((o.kvlistValue as { values?: unknown }).values, depth + 1);
  if (typeof o.bytesValue === 'string') return o.bytesValue;
  return null;
}

/** An OTLP/JSON repeated field: absent is empty, anything but an array is malformed. */
export function jsonArray(value: unknown, what = 'list'): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new OtlpDecodeError(`${what} must be an array`);
  return value;
}

/** OTLP/JSON KeyValues as a plain object. */
export function jsonAttributes(list: unknown, depth = 0): Attributes {
  checkDepth(depth);
  const out: Attributes = {};
  for (const kv of jsonArray(list, 'attributes')) {
    if (!kv || typeof kv !== 'object') throw new OtlpDecodeError('an attribute must be an object {key, value}');
    const { key, value } = kv as { key?: unknown; value?: unknown };
    if (typeof key === 'string' && key) out[key] = jsonValue(value, depth);
  }
  return out;
}
