import $protobuf from 'protobufjs/minimal.js';

/**
 * The protobufjs reader the generated OTLP decoders run on: protobufjs'
 * own `BufferReader` with four reads replaced (the generated code calls
 * them by name; nothing else changes):
 *
 * - `fixed64` and `int64` return exact `bigint`s, read with one DataView
 *   access, instead of a `LongBits` plus a `Long` per value (protobufjs'
 *   default with `long` installed; without it, lossy doubles).
 * - `bytes` returns a plain `Uint8Array` view of the body instead of a
 *   `Buffer` slice (cheaper to make; the ids are copied into the columns).
 * - `string` interns short strings: attribute keys, span names and the
 *   values a batch repeats on every span (session ids, models, ...) come
 *   back as the same string object instead of a fresh `utf8Slice` each, so
 *   decoding allocates less and later lookups hit the string's cached hash.
 *
 * The declared types of the generated messages still say `Long|number` for
 * 64-bit fields; code reading them through this reader gets `bigint`.
 */
const BYTES_PER_SLOT = 64;
const SLOTS = 4096;
// A direct-mapped cache shared by every reader of the thread: slot -> (bytes, string).
const cacheBytes = new Uint8Array(SLOTS * BYTES_PER_SLOT);
const cacheView = new DataView(cacheBytes.buffer);
const cacheLengths = new Int32Array(SLOTS).fill(-1);
const cacheStrings: string[] = new Array<string>(SLOTS).fill('');

const utf8Slice = (Buffer.prototype as unknown as { utf8Slice(start: number, end: number): string }).utf8Slice;

function outOfRange(reader: OtlpReader, length: number): RangeError {
  return RangeError(`index out of range: ${reader.pos} + ${length} > ${reader.len}`);
}

export class OtlpReader extends $protobuf.BufferReader {
  private readonly view: DataView;

  constructor(buffer: Buffer) {
    super(buffer);
    this.view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  }

  override fixed64(): never {
    if (this.pos + 8 > this.len) throw outOfRange(this, 8);
    const value = this.view.getBigUint64(this.pos, true);
    this.pos += 8;
    return value as never;
  }

  override int64(): never {
    // A varint of up to 10 bytes, two's complement: read as 64 unsigned bits, then signed.
    const buf = this.buf;
    let lo = 0;
    let hi = 0;
    let shift = 0;
    let b: number;
    do {
      if (this.pos >= this.len) throw outOfRange(this, 1);
      b = buf[this.pos++]!;
      if (shift < 28) lo |= (b & 127) << shift;
      else if (shift === 28) {
        lo |= (b & 15) << 28;
        hi = (b & 127) >> 4;
      } else if (shift < 64) hi |= (b & 127) << (shift - 32);
      shift += 7;
    } while (b & 128 && shift < 70);
    if (b & 128) throw Error('invalid varint encoding');
    return BigInt.asIntN(64, (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0)) as never;
  }

  override bytes(): Buffer {
    const len = this.uint32();
    const start = this.pos;
    const end = start + len;
    if (end > this.len) throw outOfRange(this, len);
    this.pos = end;
    // A plain view (no Buffer species construction): ids are read once, into the span columns.
    return new Uint8Array(this.buf.buffer, this.buf.byteOffset + start, len) as unknown as Buffer;
  }

  override string(): string {
    const len = this.uint32();
    const start = this.pos;
    const end = start + len;
    if (end > this.len) throw outOfRange(this, len);
    this.pos = end;
    if (len > BYTES_PER_SLOT) return utf8Slice.call(this.buf, start, end);
    // Hash and compare four bytes at a time: this runs for nearly every string of a request.
    const view = this.view;
    const words = end - ((end - start) & 3);
    let hash = len;
    let i = start;
    for (; i < words; i += 4) hash = Math.imul(hash ^ view.getUint32(i, true), 0x9e3779b1);
    for (; i < end; i++) hash = Math.imul(hash ^ this.buf[i]!, 0x9e3779b1);
    const slot = (hash ^ (hash >>> 15)) & (SLOTS - 1);
    const base = slot * BYTES_PER_SLOT;
    if (cacheLengths[slot] === len) {
      let k = 0;
      while (k + 4 <= len && cacheView.getUint32(base + k, true) === view.getUint32(start + k, true)) k += 4;
      while (k < len && cacheBytes[base + k] === this.buf[start + k]) k++;
      if (k === len) return cacheStrings[slot]!;
    }
    const value = utf8Slice.call(this.buf, start, end);
    cacheBytes.set(this.buf.subarray(start, end), base);
    cacheLengths[slot] = len;
    cacheStrings[slot] = value;
    return value;
  }
}
