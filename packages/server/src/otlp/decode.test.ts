import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Long from 'long';
import { MAX_ATTRIBUTE_DEPTH } from './attributes.js';
import { decodeJsonExport } from './decode-json.js';
import { decodeProtobufExport } from './decode-protobuf.js';
import { opentelemetry } from './generated/otlp.js';
import { OtlpDecodeError } from './model.js';
import { toRecords } from './records.js';

const { ExportTraceServiceRequest } = opentelemetry.proto.collector.trace.v1;
const bytes = (hex: string) => Buffer.from(hex, 'hex');

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
    const { records, scopes, rejected } = toRecords(decodeProtobufExport(body));
    assert.equal(rejected, 0);
    assert.equal(records[0]!.startNs, 1700000000123456789n);
    assert.equal(records[0]!.endNs, 1700000000987654321n);
    assert.deepEqual(JSON.parse(records[0]!.attributes), { big: '-9007199254740993', n: 5 });
    assert.equal(scopes.length, 1);
    assert.deepEqual(JSON.parse(scopes[0]!.resourceAttributes), { 'service.name': 'w' });
    assert.equal(records[0]!.scopeId, scopes[0]!.scopeId, 'the span references its resource and scope');
    assert.equal(records[0]!.traceId, '0af7651916cd43dd8448eb211c80319c');
    assert.equal(records[0]!.traceKey, 0x0af7651916cd43dd8448eb211c80319cn, 'the 128-bit key is the id read as an unsigned integer');
    assert.equal(records[0]!.spanKey, 0xb7ad6b7169203331n);
    assert.equal(records[0]!.parentKey, null);
    assert.equal(records[0]!.detail, null, 'nothing rarely-set: no detail');
  });

  it('reads OTLP/JSON ids in either case and int64 as string or number; names the session', () => {
    const decoded = decodeJsonExport(Buffer.from(JSON.stringify({
      resourceSpans: [{ scopeSpans: [{ spans: [
        { traceId: '0AF7651916CD43DD8448EB211C80319C', spanId: 'B7AD6B7169203331', startTimeUnixNano: 1700000000000000000, endTimeUnixNano: '1700000000000000001',
          attributes: [{ key: 'gen_ai.conversation.id', value: { stringValue: 'conv-9' } }], kind: 'SPAN_KIND_CLIENT' },
      ] }] }],
    })));
    const { records } = toRecords(decoded);
    assert.equal(records[0]!.spanId, 'b7ad6b7169203331');
    assert.equal(records[0]!.endNs, 1700000000000000001n);
    assert.equal(records[0]!.sessionId, 'conv-9');
    assert.equal(records[0]!.kind, 3);
  });

  it('rejects spans one by one with reasons, and refuses malformed bodies', () => {
    const good = { traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8), startTimeUnixNano: '10', endTimeUnixNano: '20' };
    const decoded = decodeJsonExport(Buffer.from(JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [
      good, { ...good, traceId: 'ab' }, { ...good, spanId: '0'.repeat(16) }, { ...good, endTimeUnixNano: '5' }, { ...good, parentSpanId: 'zz' }, { ...good, startTimeUnixNano: '0' },
    ] }] }] })));
    const { records, rejected, errorMessage } = toRecords(decoded);
    assert.equal(records.length, 1);
    assert.equal(rejected, 5);
    for (const reason of ['trace id', 'span id is not 8', 'end time is before', 'parent span id', 'start time is missing']) assert.ok(errorMessage.includes(reason), reason);
    assert.throws(() => decodeJsonExport(Buffer.from('{')), OtlpDecodeError);
    assert.throws(() => decodeJsonExport(Buffer.from('{"resourceSpans": 3}')), OtlpDecodeError);
    assert.throws(() => decodeProtobufExport(Buffer.from([0x0a, 0x05, 0x01])), OtlpDecodeError);
  });

  it('refuses OTLP/JSON attribute values nested deeper than MAX_ATTRIBUTE_DEPTH instead of overflowing the stack', () => {
    const nested = (depth: number) => '{"arrayValue":{"values":['.repeat(depth) + '{"intValue":"1"}' + ']}}'.repeat(depth);
    const body = (depth: number) =>
      Buffer.from(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"${'ab'.repeat(16)}","spanId":"${'cd'.repeat(8)}","startTimeUnixNano":"1","endTimeUnixNano":"2","attributes":[{"key":"k","value":${nested(depth)}}]}]}]}]}`);
    assert.throws(() => decodeJsonExport(body(100_000)), OtlpDecodeError);
    assert.throws(() => decodeJsonExport(body(MAX_ATTRIBUTE_DEPTH + 1)), /nest deeper than 64 levels/);
    const atLimit = toRecords(decodeJsonExport(body(MAX_ATTRIBUTE_DEPTH)));
    assert.equal(atLimit.records.length, 1);
  });
});
