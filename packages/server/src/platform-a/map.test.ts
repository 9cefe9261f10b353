import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { judgeConversation } from './map.js';
import type { PlatformConversation } from './schemas.js';

const target = { organizationId: 'org_1', projectId: 'prj_1', platformAgentId: 'agent_1' };
const base: PlatformConversation = {
  conversation_id: 'conv_1',
  agent_id: 'agent_1',
  status: 'done',
  start_time_unix: 1_800_000_000,
  duration_secs: 20,
  termination_reason: 'user_hangup',
  transcript: [
    { role: 'agent', message: 'Hello', time_in_call_secs: 0 },
    { role: 'user', message: 'Refund please', time_in_call_secs: 2 },
    { role: 'tool', message: '{"refund":"ok"}', time_in_call_secs: 5, tool_name: 'issue_refund' },
    { role: 'agent', message: 'Done.', time_in_call_secs: 6, latency_ms: 800 },
  ],
  metadata: { language: 'en' },
};

describe('judgeConversation (platform_a transcript to production conversation)', () => {
  it('maps a complete conversation: turns, offsets, durations, latencies, tool calls', () => {
    const judged = judgeConversation(base, target);
    assert.equal(judged.kind, 'complete');
    if (judged.kind !== 'complete') return;
    const c = judged.input;
    assert.equal(c.source, 'platform_a');
    assert.equal(c.externalId, 'conv_1');
    assert.equal(c.platformAgentId, 'agent_1');
    assert.equal(c.startedAt, '2027-01-15T08:00:00.000Z');
    assert.equal(c.endedAt, '2027-01-15T08:00:20.000Z');
    assert.equal(c.durationMs, 20_000);
    assert.equal(c.terminationReason, 'user_hangup');
    assert.deepEqual(c.turns.map((t) => [t.role, t.offset_ms, t.duration_ms, t.latency_ms]), [
      ['agent', 0, 2000, null],
      ['user', 2000, 3000, null],
      ['tool', 5000, 1000, null],
      ['agent', 6000, 14_000, 800],
    ]);
    assert.equal(c.turns[1]!.started_at, '2027-01-15T08:00:02.000Z');
    assert.deepEqual(c.toolCalls, [{ name: 'issue_refund', arguments: null, output: { refund: 'ok' }, error: null, started_at: '2027-01-15T08:00:05.000Z', duration_ms: null, turn_index: 2 }]);
    assert.deepEqual(c.metadata, { language: 'en' });
  });

  it('calls anything but done-with-a-transcript incomplete', () => {
    for (const status of ['in_progress', 'processing', 'failed']) {
      const judged = judgeConversation({ ...base, status, transcript: undefined }, target);
      assert.equal(judged.kind, 'incomplete');
      if (judged.kind === 'incomplete') assert.equal(judged.status, status);
    }
    assert.equal(judgeConversation({ ...base, transcript: null }, target).kind, 'incomplete');
  });

  it('refuses a malformed transcript or another agent\'s conversation as invalid data', () => {
    assert.equal(judgeConversation({ ...base, transcript: [{ role: 'narrator', message: 'x' }] }, target).kind, 'invalid');
    assert.equal(judgeConversation({ ...base, transcript: 'not a list' }, target).kind, 'invalid');
    assert.equal(judgeConversation({ ...base, agent_id: 'agent_2' }, target).kind, 'invalid');
  });
});
