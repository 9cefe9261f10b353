import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import Long from 'long';
import { MAX_ATTRIBUTE_DEPTH } from './attributes.js';
import { AppError } from '../http/errors.js';
import { type SpanColumns, columnOffsets } from './columns.js';
import { decodeOtlpSpans } from './decode.js';
import { decodeJsonExport } from './decode-json.js';
import { decodeProtobufSpans } from './decode-protobuf.js';
import { opentelemetry } from './generated/otlp.js';
import { OtlpDecodeError } from './model.js';
import { toColumns } from './records.js';

const { ExportTraceServiceRequest } = opentelemetry.proto.collector.trace.v1;
const bytes = (hex: string) => Buffer.from(hex, 'hex');

/** Row `i` of the columns as plain values (keys read back from DuckDB's little-endian layout). */
function row(c: SpanColumns, i: number) {
  const at = columnOffsets(c.capacity);
  const view = new DataView(c.fixed);
  const u64 = (offset: number) => view.getBigUint64(offset, true);
  return {
    traceKey: (u64(at.trace + 16 * i + 8) << 64n) | u64(at.trace + 16 * i),
    spanKey: u64(at.span + 8 * i),
    parentKey: view.getUint8(at.parentNull + i) ? null : u64(at.parent + 8 * i),
    startNs: u64(at.start + 8 * i),
    endNs: u64(at.end + 8 * i),
    scopeId: u64(at.scope + 8 * i),
    kind: view.getUint8(at.kind + i),
    statusCode: view.getUint8(at.status + i),
    name: c.names[i],
    attributes: JSON.parse(c.attributes[i]!),
    sessionId: c.sessionIds[i],
    detail: c.details[i] === null ? null : JSON.parse(c.details[i]!),
  };
}

describe('OTLP decoding', () => {
  it('keeps fixed64 nanoseconds and int64 attributes exact (protobuf)', () => {
    const body = ExportTraceServiceRequest.encode({
      resourceSpans: [{
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'w' } }] },
        scopeSpans: [{
          scope: { name: 's', version: '1' },
          spans: [{
            traceId: bytes('0af7651916cd43dd8448eb211c80319c'), spanId: bytes('b7ad6b7169203331'), name: 'x', kind: 2,
            startTimeUnixNano: Long.fromString('1700000000123456789', true), endTimeUnixNano: Long.fromString('1700000000987654321', true),
            attributes: [{ key: 'big', value: { intValue: Long.fromString('-9007199254740993') } }, { key: 'n', value: { intValue: Long.fromNumber(5) } }],
          }],
        }],
      }],
    }).finish();
    const columns = decodeProtobufSpans(Buffer.from(body));
    assert.equal(columns.rejected, 0);
    const r = row(columns, 0);
    assert.equal(r.startNs, 1700000000123456789n);
    assert.equal(r.endNs, 1700000000987654321n);
    assert.deepEqual(r.attributes, { big: '-9007199254740993', n: 5 });
    assert.equal(columns.scopes.length, 1);
    assert.deepEqual(JSON.parse(columns.scopes[0]!.resourceAttributes), { 'service.name': 'w' });
    assert.equal(r.scopeId, columns.scopes[0]!.scopeId, 'the span references its resource and scope');
    assert.deepEqual(columns.traces, ['0af7651916cd43dd8448eb211c80319c']);
    assert.equal(r.traceKey, 0x0af7651916cd43dd8448eb211c80319cn, 'the 128-bit key is the id read as an unsigned integer');
    assert.equal(r.spanKey, 0xb7ad6b7169203331n);
    assert.equal(r.parentKey, null);
    assert.equal(r.kind, 2);
    assert.equal(r.detail, null, 'nothing rarely-set: no detail');
  });

  it('writes the same attribute and detail JSON as the object path, and names the session', () => {
    const attributes = [
      { key: 'session.id', value: { stringValue: 'weak' } }, { key: 'svc.session.id', value: { stringValue: 'strong "quoted"\n' } },
      { key: 'f', value: { doubleValue: 0.5 } }, { key: 'nan', value: { doubleValue: Number.NaN } }, { key: 'b', value: { boolValue: false } },
      { key: 'arr', value: { arrayValue: { values: [{ intValue: Long.fromNumber(1) }, { stringValue: 'x' }] } } },
      { key: 'kv', value: { kvlistValue: { values: [{ key: 'inner', value: { boolValue: true } }] } } },
      { key: 'raw', value: { bytesValue: bytes('00ff') } }, { key: '', value: { stringValue: 'no key' } }, { key: 'empty', value: {} },
    ];
    const span = (extra: object) => ({ traceId: bytes('ab'.repeat(16)), spanId: bytes('cd'.repeat(8)), startTimeUnixNano: Long.fromNumber(10, true), endTimeUnixNano: Long.fromNumber(20, true), ...extra });
    const body = ExportTraceServiceRequest.encode({ resourceSpans: [{ scopeSpans: [{ spans: [
      span({ attributes, parentSpanId: bytes('ef'.repeat(8)), status: { code: 2, message: 'failed' }, events: [{ name: 'e', timeUnixNano: Long.fromNumber(15, true), attributes: [{ key: 'i', value: { intValue: Long.fromNumber(3) } }] }] }),
      span({ spanId: bytes('ce'.repeat(8)), attributes: [{ key: 'a', value: { stringValue: '1' } }, { key: 'a', value: { stringValue: '2' } }, { key: '7', value: { intValue: Long.fromNumber(7) } }, { key: 'conversation.id', value: { intValue: Long.fromNumber(42) } }] }),
    ] }] }] }).finish();
    const columns = decodeProtobufSpans(Buffer.from(body));
    const first = row(columns, 0);
    assert.equal(columns.attributes[0], JSON.stringify({ 'session.id': 'weak', 'svc.session.id': 'strong "quoted"\n', f: 0.5, nan: null, b: false, arr: [1, 'x'], kv: { inner: true }, raw: 'AP8=', empty: null }));
    assert.equal(first.sessionId, 'strong "quoted"\n', 'svc.session.id outranks session.id');
    assert.equal(first.parentKey, 0xefefefefefefefefn);
    assert.equal(first.statusCode, 2);
    assert.deepEqual(first.detail, { status_message: 'failed', events: [{ name: 'e', time_unix_nano: '15', attributes: { i: 3 } }] });
    assert.equal(columns.attributes[1], JSON.stringify({ 7: 7, a: '2', 'conversation.id': 42 }), 'a repeated key and an index-like key read as an object would');
    assert.equal(row(columns, 1).sessionId, '42');
    assert.deepEqual(columns.traces, ['ab'.repeat(16)], 'one trace, listed once');
  });

  it('reads OTLP/JSON ids in either case and int64 as string or number; names the session', () => {
    const decoded = decodeJsonExport(Buffer.from(JSON.stringify({
      resourceSpans: [{ scopeSpans: [{ spans: [
        { traceId: '0AF7651916CD43DD8448EB211C80319C', spanId: 'B7AD6B7169203331', startTimeUnixNano: 1700000000000000000, endTimeUnixNano: '1700000000000000001',
          attributes: [{ key: 'gen_ai.conversation.id', value: { stringValue: 'conv-9' } }], kind: 'SPAN_KIND_CLIENT' },
      ] }] }],
    })));
    const columns = toColumns(decoded);
    const r = row(columns, 0);
    assert.equal(r.spanKey, 0xb7ad6b7169203331n);
    assert.equal(r.endNs, 1700000000000000001n);
    assert.equal(r.sessionId, 'conv-9');
    assert.equal(r.kind, 3);
  });

  it('rejects spans one by one with reasons, and refuses malformed bodies', () => {
    const good = { traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8), startTimeUnixNano: '10', endTimeUnixNano: '20' };
    const decoded = decodeJsonExport(Buffer.from(JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [
      good, { ...good, traceId: 'ab' }, { ...good, spanId: '0'.repeat(16) }, { ...good, endTimeUnixNano: '5' }, { ...good, parentSpanId: 'zz' }, { ...good, startTimeUnixNano: '0' },
    ] }] }] })));
    const { count, rejected, errorMessage } = toColumns(decoded);
    assert.equal(count, 1);
    assert.equal(rejected, 5);
    for (const reason of ['trace id', 'span id is not 8', 'end time is before', 'parent span id', 'start time is missing']) assert.ok(errorMessage.includes(reason), reason);
    assert.throws(() => decodeJsonExport(Buffer.from('{')), OtlpDecodeError);
    assert.throws(() => decodeJsonExport(Buffer.from('{"resourceSpans": 3}')), OtlpDecodeError);
    assert.throws(() => decodeProtobufSpans(Buffer.from([0x0a, 0x05, 0x01])), OtlpDecodeError);
  });

  it('inflates gzip within the limit and refuses bodies it cannot read as AppErrors', () => {
    const body = Buffer.from(ExportTraceServiceRequest.encode({ resourceSpans: [] }).finish());
    assert.equal(decodeOtlpSpans('protobuf', { body: gzipSync(body), gzip: true }, 1024).count, 0);
    const refusal = (fn: () => unknown, code: string) => assert.throws(fn, (err: unknown) => err instanceof AppError && err.code === code);
    refusal(() => decodeOtlpSpans('protobuf', { body: gzipSync(Buffer.alloc(4096)), gzip: true }, 1024), 'payload_too_large');
    refusal(() => decodeOtlpSpans('protobuf', { body: Buffer.from('not gzip'), gzip: true }, 1024), 'invalid_otlp');
    refusal(() => decodeOtlpSpans('json', { body: Buffer.from('{'), gzip: false }, 1024), 'invalid_otlp');
  });

  it('refuses OTLP/JSON attribute values nested deeper than MAX_ATTRIBUTE_DEPTH instead of overflowing the stack', () => {
    const nested = (depth: number) => '{"arrayValue":{"values":['.repeat(depth) + '{"intValue":"1"}' + ']}}'.repeat(depth);
    const body = (depth: number) =>
      Buffer.from(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"${'ab'.repeat(16)}","spanId":"${'cd'.repeat(8)}","startTimeUnixNano":"1","endTimeUnixNano":"2","attributes":[{"key":"k","value":${nested(depth)}}]}]}]}]}`);
    assert.throws(() => decodeJsonExport(body(100_000)), OtlpDecodeError);
    assert.throws(() => decodeJsonExport(body(MAX_ATTRIBUTE_DEPTH + 1)), /nest deeper than 64 levels/);
    assert.equal(toColumns(decodeJsonExport(body(MAX_ATTRIBUTE_DEPTH))).count, 1);
  });
});
