import { Readable } from 'node:stream';
import { createGzip, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { deepJson, deepProtobuf, sampleTrace, serialize } from '../../helpers/otlp.js';

/** One generated trace export: the body and headers to send, and how it was made. */
export interface TraceCase {
  mutation: string;
  contentType: string;
  contentEncoding?: string;
  body: Buffer;
}

const GIB = 1024 ** 3;

/**
 * A single gzip member that inflates to 1 GiB of zeros (about 1 MiB on the
 * wire), made by streaming zeros through the compressor one MiB at a time:
 * never more than the compressed output is held.
 */
export async function gzipBomb(inflatedBytes = GIB): Promise<Buffer> {
  const chunk = Buffer.alloc(1 << 20);
  let left = Math.ceil(inflatedBytes / chunk.length);
  const zeros = new Readable({ read: () => void zeros.push(left-- > 0 ? chunk : null) });
  const out: Buffer[] = [];
  for await (const part of zeros.pipe(createGzip({ level: 9 }))) out.push(part as Buffer);
  return Buffer.concat(out);
}

/** 1 GiB of zeros as 64 concatenated gzip members of 16 MiB each (gzip allows several members in one stream). */
export function multiMemberBomb(): Buffer {
  const member = gzipSync(Buffer.alloc(16 << 20), { level: 9 });
  return Buffer.concat(Array.from({ length: GIB / (16 << 20) }, () => member));
}

/** A copy with the bytes at `positions` (modulo the length) xored with non-zero masks. */
function flip(body: Buffer, positions: number[], masks: number[]): Buffer {
  const copy = Buffer.from(body);
  positions.forEach((p, i) => (copy[p % copy.length] ^= masks[i % masks.length]! || 1));
  return copy;
}

/** Everything the trace fuzz sends, given the bombs built once per run. */
export function traceCases(bombs: { single: Buffer; multi: Buffer; oversized: Buffer }): fc.Arbitrary<TraceCase> {
  const bases = [1, 2, 5, 20].map((n) => sampleTrace(n));
  const proto = bases.map((b) => serialize.protobuf(b));
  const json = bases.map((b) => serialize.json(b));
  const encoded = fc.oneof(
    fc.constantFrom(...proto).map((body) => ({ body, contentType: 'application/x-protobuf' })),
    fc.constantFrom(...json).map((body) => ({ body, contentType: 'application/json' })),
  );
  const positions = fc.array(fc.nat(), { minLength: 1, maxLength: 8 });
  const masks = fc.array(fc.integer({ min: 1, max: 255 }), { minLength: 1, maxLength: 8 });
  const kind = (label: string, a: fc.Arbitrary<Omit<TraceCase, 'mutation'>>) => a.map((c) => ({ mutation: label, ...c }));
  return fc.oneof(
    { weight: 2, arbitrary: kind('valid', encoded) },
    { weight: 1, arbitrary: kind('valid gzip', encoded.map((c) => ({ ...c, body: gzipSync(c.body), contentEncoding: 'gzip' }))) },
    { weight: 6, arbitrary: kind('byte flips', fc.tuple(encoded, positions, masks).map(([c, p, m]) => ({ ...c, body: flip(c.body, p, m) }))) },
    { weight: 4, arbitrary: kind('truncated', fc.tuple(encoded, fc.nat()).map(([c, n]) => ({ ...c, body: c.body.subarray(0, n % c.body.length) }))) },
    { weight: 2, arbitrary: kind('random bytes', fc.tuple(fc.uint8Array({ maxLength: 2000 }), fc.constantFrom('application/x-protobuf', 'application/json')).map(([b, t]) => ({ body: Buffer.from(b), contentType: t }))) },
    { weight: 2, arbitrary: kind('varint overflow', encoded.map((c) => ({ ...c, body: Buffer.concat([c.body, Buffer.from([0x0a, ...Array(11).fill(0xff)])]) }))) },
    { weight: 3, arbitrary: kind('gzip flipped', fc.tuple(encoded, positions, masks).map(([c, p, m]) => ({ ...c, body: flip(gzipSync(c.body), p, m), contentEncoding: 'gzip' }))) },
    { weight: 2, arbitrary: kind('gzip truncated', fc.tuple(encoded, fc.nat()).map(([c, n]) => { const z = gzipSync(c.body); return { ...c, body: z.subarray(0, n % z.length), contentEncoding: 'gzip' }; })) },
    { weight: 1, arbitrary: kind('not gzip', encoded.map((c) => ({ ...c, contentEncoding: 'gzip' }))) },
    { weight: 1, arbitrary: kind('gzip bomb 1 GiB', fc.constantFrom('application/x-protobuf', 'application/json').map((t) => ({ body: bombs.single, contentType: t, contentEncoding: 'gzip' }))) },
    { weight: 1, arbitrary: kind('gzip bomb 64 members', fc.constantFrom('application/x-protobuf', 'application/json').map((t) => ({ body: bombs.multi, contentType: t, contentEncoding: 'gzip' }))) },
    { weight: 1, arbitrary: kind('over 20 MiB', fc.constantFrom('application/x-protobuf', 'application/json').map((t) => ({ body: bombs.oversized, contentType: t }))) },
    { weight: 1, arbitrary: kind('deep nesting', fc.constantFrom(100, 2_000, 50_000).chain((d) => fc.constantFrom({ body: deepProtobuf(d), contentType: 'application/x-protobuf' }, { body: deepJson(d), contentType: 'application/json' }))) },
    { weight: 1, arbitrary: kind('other encoding', fc.tuple(encoded, fc.constantFrom('br', 'deflate', 'gzip, gzip', 'x-unknown')).map(([c, e]) => ({ ...c, contentEncoding: e }))) },
    { weight: 1, arbitrary: kind('other media type', fc.tuple(encoded, fc.constantFrom('text/plain', '', 'application/protobuf', 'APPLICATION/X-PROTOBUF; charset=utf-8', 'application/json; charset=utf-16')).map(([c, t]) => ({ ...c, contentType: t }))) },
  );
}
