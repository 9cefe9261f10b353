import { createHash } from 'node:crypto';

/**
 * The spans of one request ready for the span store, column by column (the
 * order of `spans`): what the decoders produce and the span writer copies
 * into DuckDB vectors. Integer columns share one `ArrayBuffer` laid out
 * exactly as DuckDB's vectors (little-endian `UHUGEINT`/`UBIGINT`/`UTINYINT`),
 * so staging is one memory copy per column, and a decoder thread can hand
 * the buffer over without copying it (`postMessage` transfer list).
 */
export interface SpanColumns {
  /** Rows (valid spans). */
  count: number;
  /** Rows the integer buffer was laid out for (>= count); see `columnOffsets`. */
  capacity: number;
  /** Integer columns: trace key, span key, parent key, start, end, scope id, kind, status, parent-is-null. */
  fixed: ArrayBuffer;
  names: string[];
  /** The span attributes as JSON text. */
  attributes: string[];
  sessionIds: (string | null)[];
  /** The rarely set members (status message, trace state, flags, events, links, dropped counts) as JSON; null when all are empty. */
  details: (string | null)[];
  /** The resources and scopes the rows reference by `scope_id`. */
  scopes: ScopeRecord[];
  /** Distinct trace ids (lowercase hex) of the rows, and the first row of each (its key bytes are there). */
  traces: string[];
  traceRows: number[];
  rejected: number;
  /** Human summary of the rejections, empty when none. */
  errorMessage: string;
}

/** A resource and instrumentation scope, stored once per project and referenced by its content hash. */
export interface ScopeRecord {
  scopeId: bigint;
  resourceAttributes: string;
  scopeName: string | null;
  scopeVersion: string | null;
  scopeAttributes: string;
}

/** Byte offset of each integer column in `fixed` for a given capacity (8-byte aligned where 64-bit). */
export function columnOffsets(capacity: number) {
  return {
    trace: 0,
    span: 16 * capacity,
    parent: 24 * capacity,
    start: 32 * capacity,
    end: 40 * capacity,
    scope: 48 * capacity,
    kind: 56 * capacity,
    status: 57 * capacity,
    parentNull: 58 * capacity,
    bytes: 59 * capacity,
  };
}

/** The 64-bit content hash that identifies a resource and scope. */
export function scopeIdOf(resourceAttributes: string, name: string, version: string, attributes: string): bigint {
  return createHash('sha256').update(resourceAttributes).update('\0').update(name).update('\0').update(version).update('\0').update(attributes).digest().readBigUInt64BE(0);
}

const MAX_UINT64 = (1n << 64n) - 1n;
function isZero(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== 0) return false;
  return true;
}
const hex = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');

/**
 * Why a span cannot be stored, or null. Ids are raw bytes (`null` when the
 * field is absent); an absent or empty parent means a root span.
 */
export function rejectionOf(traceId: Uint8Array | null, spanId: Uint8Array | null, parentId: Uint8Array | null, startNs: bigint, endNs: bigint): string | null {
  if (!traceId || traceId.length !== 16 || isZero(traceId)) return 'trace id is not 16 non-zero bytes';
  if (!spanId || spanId.length !== 8 || isZero(spanId)) return 'span id is not 8 non-zero bytes';
  if (parentId && parentId.length > 0 && (parentId.length !== 8 || isZero(parentId))) return 'parent span id is not 8 bytes';
  if (startNs === 0n) return 'start time is missing';
  if (endNs < startNs) return 'end time is before start time';
  if (endNs > MAX_UINT64) return 'end time is out of range';
  return null;
}

/**
 * Builds the `SpanColumns` of one request: scopes first (`scope`), then
 * rows (`add`), or rejections (`reject`). Ids become integer keys by
 * reading their bytes as big-endian unsigned integers, written in DuckDB's
 * little-endian layout (byte order reversed).
 */
export class SpanColumnsBuilder {
  private readonly fixed: ArrayBuffer;
  private readonly bytes: Uint8Array;
  private readonly view: DataView;
  private readonly at: ReturnType<typeof columnOffsets>;
  private count = 0;
  private readonly names: string[] = [];
  private readonly attributes: string[] = [];
  private readonly sessionIds: (string | null)[] = [];
  private readonly details: (string | null)[] = [];
  private readonly scopes: ScopeRecord[] = [];
  private readonly traces: string[] = [];
  private readonly traceRows: number[] = [];
  private readonly traceSeen = new Set<string>();
  private scopeId = 0n;
  private rejected = 0;
  private readonly reasons = new Map<string, string[]>();

  constructor(private readonly capacity: number) {
    this.at = columnOffsets(capacity);
    this.fixed = new ArrayBuffer(this.at.bytes);
    this.bytes = new Uint8Array(this.fixed);
    this.view = new DataView(this.fixed);
  }

  /** The resource and scope of the rows added next (stored once per distinct content). */
  scope(resourceAttributes: string, scopeName: string, scopeVersion: string, scopeAttributes: string): void {
    const scopeId = scopeIdOf(resourceAttributes, scopeName, scopeVersion, scopeAttributes);
    if (!this.scopes.some((s) => s.scopeId === scopeId)) {
      this.scopes.push({ scopeId, resourceAttributes, scopeName: scopeName || null, scopeVersion: scopeVersion || null, scopeAttributes });
    }
    this.scopeId = scopeId;
  }

  /** Counts a span that cannot be stored, naming the first few span ids per reason. */
  reject(reason: string, spanId: Uint8Array | null): void {
    this.rejected++;
    const ids = this.reasons.get(reason) ?? [];
    if (ids.length < 3) ids.push(spanId && spanId.length === 8 && !isZero(spanId) ? hex(spanId) : '?');
    this.reasons.set(reason, ids);
  }

  /**
   * Adds a span that passed `rejectionOf` (positional, not an object: this
   * runs once per span). `parentId` is absent or empty for a root span;
   * `attributes` and `detail` are JSON text.
   */
  add(
    traceId: Uint8Array, spanId: Uint8Array, parentId: Uint8Array | null, name: string, kind: number, startNs: bigint, endNs: bigint,
    statusCode: number, attributes: string, sessionId: string | null, detail: string | null,
  ): void {
    const i = this.count++;
    if (i >= this.capacity) throw new Error('SpanColumnsBuilder: more spans than its capacity');
    const { bytes, view, at } = this;
    const trace = at.trace + 16 * i;
    if (i === 0 || !sameBytes(bytes, trace - 16, traceId)) {
      const id = hex(traceId);
      if (!this.traceSeen.has(id)) {
        this.traceSeen.add(id);
        this.traces.push(id);
        this.traceRows.push(i);
      }
    }
    reversed(bytes, trace, traceId, 16);
    reversed(bytes, at.span + 8 * i, spanId, 8);
    const root = !parentId || parentId.length === 0;
    if (!root) reversed(bytes, at.parent + 8 * i, parentId, 8);
    bytes[at.parentNull + i] = root ? 1 : 0;
    view.setBigUint64(at.start + 8 * i, startNs, true);
    view.setBigUint64(at.end + 8 * i, endNs, true);
    view.setBigUint64(at.scope + 8 * i, this.scopeId, true);
    bytes[at.kind + i] = kind & 0xff;
    bytes[at.status + i] = statusCode & 0xff;
    this.names.push(name);
    this.attributes.push(attributes);
    this.sessionIds.push(sessionId);
    this.details.push(detail);
  }

  finish(): SpanColumns {
    const summary = [...this.reasons].map(([reason, ids]) => `${reason} (span ${ids.join(', ')})`).join('; ');
    return {
      count: this.count,
      capacity: this.capacity,
      fixed: this.fixed,
      names: this.names,
      attributes: this.attributes,
      sessionIds: this.sessionIds,
      details: this.details,
      scopes: this.scopes,
      traces: this.traces,
      traceRows: this.traceRows,
      rejected: this.rejected,
      errorMessage: this.rejected ? `${this.rejected} span(s) rejected: ${summary}` : '',
    };
  }
}

/** True when the reversed id written at `offset` is `id` (the previous row's trace, most of the time). */
function sameBytes(bytes: Uint8Array, offset: number, id: Uint8Array): boolean {
  for (let k = 0; k < 16; k++) if (bytes[offset + k] !== id[15 - k]) return false;
  return true;
}

function reversed(bytes: Uint8Array, offset: number, id: Uint8Array, length: number): void {
  for (let k = 0; k < length; k++) bytes[offset + k] = id[length - 1 - k]!;
}
