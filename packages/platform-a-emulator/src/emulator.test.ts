import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Emulator, startEmulator } from './server.js';

const KEY = 'pa_unit_full_key_01';
const now = () => Math.floor(Date.now() / 1000);

describe('platform_a emulator', () => {
  let emu: Emulator;
  const get = async (path: string, key: string | null = KEY) => {
    const res = await fetch(emu.url + path, { headers: key ? { 'x-api-key': key } : {} });
    return { status: res.status, headers: res.headers, body: res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text() };
  };
  const chat = async (agent: string, body: unknown) => {
    const res = await fetch(`${emu.url}/v1/agents/${agent}/chat`, { method: 'POST', headers: { 'x-api-key': KEY, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: await res.json() };
  };

  before(async () => {
    emu = await startEmulator({
      port: 0,
      seed: {
        keys: [
          { key: KEY, permissions: ['agents_read', 'history_read'], label: 'full' },
          { key: 'pa_unit_agents_only', permissions: ['agents_read'], label: 'agents' },
          { key: 'pa_unit_monitor_only', permissions: ['monitor'], label: 'monitor' },
        ],
        agents: [
          ...Array.from({ length: 34 }, (_, i) => ({ agent_id: `a${String(i).padStart(2, '0')}`, name: `Agent ${i}`, modality: (i % 2 ? 'text' : 'voice') as 'text' | 'voice' })),
          {
            agent_id: 'desk',
            name: 'Desk',
            modality: 'voice',
            chat: {
              rules: [
                { when: 'book', tool_call: { name: 'check_calendar', arguments: { request: '{message}' } }, reply: 'Booked: {tool_output}.' },
                { when: ['hours', 'open'], reply: 'Nine to five, {agent} says.' },
              ],
              end_phrases: ['bye'],
              end_reply: 'See you.',
            },
          },
        ],
        conversations: [
          { conversation_id: 'old', agent_id: 'desk', status: 'done', started_ago_secs: 40 * 86400 },
          { conversation_id: 'live', agent_id: 'desk', status: 'in_progress', started_ago_secs: 10 },
          { conversation_id: 'flaky', agent_id: 'desk', status: 'done', started_ago_secs: 20, incomplete_reads: 2 },
        ],
        generate: [{ agent_id: 'desk', count: 25, days: 10 }],
      },
    });
  });
  after(() => emu.close());

  it('checks keys and permissions as platform-a.md says', async () => {
    const unknown = await get('/v1/agents', 'pa_nope_nope');
    assert.equal(unknown.status, 401);
    assert.equal(unknown.body.error.code, 'invalid_api_key');
    assert.equal((await get('/v1/agents', null)).status, 401);
    const missing = await get('/v1/conversations', 'pa_unit_agents_only');
    assert.equal(missing.status, 403);
    assert.deepEqual([missing.body.error.code, missing.body.error.permission], ['missing_permission', 'history_read']);
    assert.equal((await get('/v1/agents', 'pa_unit_monitor_only')).body.error.permission, 'agents_read');
    assert.equal((await get('/v1/conversations', 'pa_unit_monitor_only')).status, 200, 'monitor is enough for history');
  });

  it('pages agents with a cursor until next_cursor is null', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await get(`/v1/agents?page_size=10${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(page.status, 200);
      seen.push(...page.body.agents.map((a: any) => a.agent_id));
      cursor = page.body.next_cursor;
      pages++;
    } while (cursor);
    assert.equal(pages, 4);
    assert.equal(new Set(seen).size, 35);
    assert.equal((await get('/v1/agents')).body.agents.length, 30, 'default page size 30');
    assert.equal((await get('/v1/agents?page_size=101')).status, 400);
    assert.equal((await get('/v1/agents/desk')).body.modality, 'voice');
    assert.equal((await get('/v1/agents/none')).status, 404);
  });

  it('lists conversations newest first, 30 days at most, since a time, page by page', async () => {
    const ids: string[] = [];
    const starts: number[] = [];
    let cursor: string | null = null;
    do {
      const page = await get(`/v1/conversations?agent_id=desk&page_size=7${cursor ? `&cursor=${cursor}` : ''}`);
      ids.push(...page.body.conversations.map((c: any) => c.conversation_id));
      starts.push(...page.body.conversations.map((c: any) => c.start_time_unix));
      cursor = page.body.next_cursor;
    } while (cursor);
    assert.equal(ids.length, 27, 'everything but the 40-day-old call');
    assert.ok(!ids.includes('old'));
    assert.deepEqual(starts, [...starts].sort((a, b) => b - a));
    const recent = await get(`/v1/conversations?agent_id=desk&since_unix=${now() - 3600}`);
    assert.deepEqual(recent.body.conversations.map((c: any) => c.conversation_id).sort(), ['cv_desk_1_000000', 'flaky', 'live']);
    assert.equal((await get('/v1/conversations?cursor=garbage')).status, 400);
  });

  it('reads a conversation by id at any age; incomplete reads and running calls have no transcript', async () => {
    const old = await get('/v1/conversations/old');
    assert.equal(old.body.status, 'done');
    assert.ok(Array.isArray(old.body.transcript) && old.body.transcript.length > 0);
    assert.equal((await get('/v1/conversations/live')).body.transcript, undefined);
    assert.equal((await get('/v1/conversations/flaky')).body.status, 'processing');
    assert.equal((await get('/v1/conversations/flaky')).body.transcript, undefined);
    assert.equal((await get('/v1/conversations/flaky')).body.status, 'done', 'complete after two incomplete reads');
    assert.equal((await get('/v1/conversations/nope')).status, 404);
  });

  it('injects faults: 429 with Retry-After, 5xx, delays and dropped connections, each for a number of requests', async () => {
    emu.state.addFault({ status: 429, retry_after: 9, times: 1 });
    const limited = await get('/v1/agents');
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after'), '9');
    assert.equal(limited.body.error.code, 'rate_limited');
    assert.equal((await get('/v1/agents')).status, 200, 'used up');
    emu.state.addFault({ status: 502, path_prefix: '/v1/conversations', key_label: 'full', times: 1 });
    assert.equal((await get('/v1/agents')).status, 200, 'other paths unaffected');
    const bad = await get('/v1/conversations');
    assert.equal(bad.status, 502);
    assert.equal(typeof bad.body, 'string', 'not JSON');
    emu.state.addFault({ drop: true, times: 1 });
    await assert.rejects(fetch(`${emu.url}/v1/agents`, { headers: { 'x-api-key': KEY } }));
    const log = emu.state.requests();
    assert.ok(log.every((r) => r.key_label !== KEY), 'the log names labels, never keys');
    assert.deepEqual(log.slice(-1).map((r) => r.status), [0], 'a dropped request is logged with status 0');
  });

  it('chats deterministically: rules, a tool call that waits for its result, an end phrase', async () => {
    const first = await chat('desk', { message: 'When are you open?' });
    assert.equal(first.status, 200);
    assert.deepEqual(first.body, { conversation_id: first.body.conversation_id, reply: 'Nine to five, Desk says.', tool_calls: [], ended: false });
    const id = first.body.conversation_id;
    const call = await chat('desk', { conversation_id: id, message: 'Please book Friday' });
    assert.equal(call.body.reply, null);
    assert.deepEqual(call.body.tool_calls.map((t: any) => [t.name, t.arguments]), [['check_calendar', { request: 'Please book Friday' }]]);
    assert.equal((await chat('desk', { conversation_id: id, message: 'hello?' })).status, 400, 'the tool result is required');
    const booked = await chat('desk', { conversation_id: id, message: '', tool_results: [{ tool_call_id: call.body.tool_calls[0].id, output: 'Friday 10:00' }] });
    assert.equal(booked.body.reply, 'Booked: Friday 10:00.');
    assert.equal((await chat('desk', { conversation_id: id, message: 'something else' })).body.reply, 'You said: something else');
    const bye = await chat('desk', { conversation_id: id, message: 'ok bye' });
    assert.deepEqual([bye.body.reply, bye.body.ended], ['See you.', true]);
    assert.equal((await chat('desk', { conversation_id: id, message: 'hi' })).status, 409);
    assert.equal((await chat('nobody', { message: 'hi' })).status, 404);
    assert.equal((await chat('desk', { conversation_id: 'chat_999999', message: 'hi' })).status, 404);
    assert.equal((await chat('desk', {})).status, 400);
    const again = await chat('desk', { message: 'When are you open?' });
    assert.equal(again.body.reply, first.body.reply, 'the same input gets the same answer');
  });
});
