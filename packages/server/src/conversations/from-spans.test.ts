import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StoredSpan } from '../traces/repository.js';
import { conversationFromSpans } from './from-spans.js';

const T0 = 1_700_000_000_000_000_000n;
const ms = (n: number) => T0 + BigInt(Math.round(n * 1e6));
let nextId = 1;

function span(name: string, startMs: number, endMs: number, parent: StoredSpan | null, attributes: Record<string, unknown> = {}, extra: Partial<StoredSpan> = {}): StoredSpan {
  return {
    organizationId: 'org_1', projectId: 'prj_1', traceId: 'a'.repeat(32), spanId: (nextId++).toString(16).padStart(16, '0'),
    parentSpanId: parent?.spanId ?? null, name, kind: 1, startNs: ms(startMs), endNs: ms(endMs), statusCode: 0, statusMessage: null, traceState: null,
    attributes, resourceAttributes: { 'service.name': 'worker' }, scopeName: null, scopeVersion: null, events: [], links: [], sessionId: null, ...extra,
  };
}

const derive = (spans: StoredSpan[]) => conversationFromSpans({ organizationId: 'org_1', projectId: 'prj_1', externalId: 'sess-1', spans });

describe('conversationFromSpans', () => {
  it('LiveKit Agents spans: user and agent turns, latency from end of speech to first audio, TTFT, TTFB, tools, interruptions', () => {
    const root = span('agent_session', 0, 9000, null, { 'lk.agent_name': 'desk', 'svc.room.name': 'room-1' });
    const user = span('user_turn', 100, 1500, root, { 'lk.user_transcript': 'Book me in' });
    const agent = span('agent_turn', 1510, 5000, root, { 'lk.interrupted': true });
    const llm = span('llm_request', 1520, 2200, agent, { 'lk.response.text': 'Done.', 'lk.llm_metrics': '{"ttft":0.25}' });
    const tool = span('function_tool', 1600, 1700, agent, { 'lk.function_tool.name': 'book', 'lk.function_tool.arguments': '{"day":"mon"}', 'lk.function_tool.output': 'ok' });
    const tts = span('tts_request', 2000, 5000, agent, { 'lk.input_text': 'Done.', 'lk.tts_metrics': '{"ttfb":0.1234}' });
    const odd = span('custom_thing', 10, 20, root);
    const c = derive([tts, odd, tool, llm, agent, user, root]);
    assert.equal(c.startedAt, new Date(Number(T0 / 1_000_000n)).toISOString());
    assert.equal(c.durationMs, 9000);
    assert.equal(c.platformAgentId, 'desk');
    assert.equal(c.terminationReason, 'completed');
    assert.deepEqual(c.turns.map((t) => [t.role, t.text]), [['user', 'Book me in'], ['agent', 'Done.'], ['tool', 'ok']]);
    const reply = c.turns[1]!;
    assert.equal(reply.latency_ms, 623.4, 'first audio (2000 + 123.4) minus end of speech (1500)');
    assert.equal(reply.llm_ttft_ms, 250);
    assert.equal(reply.tts_ttfb_ms, 123.4);
    assert.equal(reply.interrupted, true);
    assert.deepEqual(c.toolCalls, [{ name: 'book', arguments: { day: 'mon' }, output: 'ok', error: null, started_at: new Date(Number(ms(1600) / 1_000_000n)).toISOString(), duration_ms: 100, turn_index: 1 }]);
    assert.deepEqual(c.metadata.unknown_spans, [{ name: 'custom_thing', count: 1 }]);
    assert.equal(c.metadata.room_name, 'room-1');
  });

  it('Pipecat spans: conversation → turn → stt / llm / tts, with metrics.ttfb and turn.was_interrupted', () => {
    const root = span('conversation', 0, 6000, null, { 'conversation.id': 'pc-1' });
    const turn = span('turn', 0, 4000, root, { 'turn.number': 1, 'turn.was_interrupted': true });
    const stt = span('stt', 100, 1200, turn, { transcript: 'What time is it?' });
    const llm = span('llm', 1250, 1800, turn, { 'metrics.ttfb': 0.2, output: 'It is noon.' });
    const tts = span('tts', 1500, 3000, turn, { text: 'It is noon.', 'metrics.ttfb': 0.15 });
    const c = derive([root, turn, stt, llm, tts]);
    assert.deepEqual(c.turns.map((t) => [t.role, t.text]), [['user', 'What time is it?'], ['agent', 'It is noon.']]);
    const agent = c.turns[1]!;
    assert.equal(agent.latency_ms, 450, 'tts start 1500 + 150 ms TTFB - end of speech 1200');
    assert.equal(agent.llm_ttft_ms, 200);
    assert.equal(agent.tts_ttfb_ms, 150);
    assert.equal(agent.interrupted, true);
    assert.deepEqual(c.metadata.unknown_spans, []);
  });

  it('GenAI semantic-convention tool spans, failed tools, and no session span: in progress, no end', () => {
    const llm = span('chat gpt-4o', 0, 500, null, { 'gen_ai.operation.name': 'chat', 'gen_ai.output.text': 'Let me check.' });
    const tool = span('execute_tool lookup', 600, 700, null, { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup', 'gen_ai.tool.call.arguments': '{"q":1}' }, { statusCode: 2, statusMessage: 'timeout' });
    const c = derive([tool, llm]);
    assert.deepEqual(c.turns.map((t) => t.role), ['agent', 'tool']);
    assert.equal(c.turns[0]!.text, 'Let me check.');
    assert.equal(c.endedAt, null);
    assert.equal(c.durationMs, null);
    assert.equal(c.terminationReason, null);
    assert.deepEqual(c.toolCalls[0], { name: 'lookup', arguments: { q: 1 }, output: null, error: 'timeout', started_at: c.toolCalls[0]!.started_at, duration_ms: 100, turn_index: null });
  });

  it('an errored session span names the termination reason; multiple traces of one session are one transcript', () => {
    const root = span('agent_session', 0, 3000, null, {}, { statusCode: 2, statusMessage: 'participant left' });
    const late = span('user_turn', 2000, 2500, null, { 'lk.user_transcript': 'hello?' }, { traceId: 'b'.repeat(32) });
    const c = derive([root, late]);
    assert.equal(c.terminationReason, 'participant left');
    assert.equal(c.traceId, 'a'.repeat(32));
    assert.deepEqual(c.metadata.trace_ids, ['a'.repeat(32), 'b'.repeat(32)]);
    assert.equal(c.turns[0]!.offset_ms, 2000);
  });
});
