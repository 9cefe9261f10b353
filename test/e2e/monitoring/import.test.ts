import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../../helpers/emulator.js';
import { FULL_KEY, type Stack, allConversations, baseSeed, platformASetup, save, startStack, waitForAgent } from './fixtures.js';

const now = () => Math.floor(Date.now() / 1000);

describe('platform_a import: backfill with progress, incremental pickup, calls still running', () => {
  let s: Stack;
  before(async () => {
    s = await startStack(
      baseSeed({
        conversations: [
          { conversation_id: 'conv_live', agent_id: 'agent_alpha', status: 'in_progress', started_ago_secs: 300 },
          { conversation_id: 'conv_processing', agent_id: 'agent_alpha', status: 'processing', started_ago_secs: 900 },
          { conversation_id: 'conv_platform_failed', agent_id: 'agent_alpha', status: 'failed', started_ago_secs: 1800 },
          { conversation_id: 'conv_other_agent', agent_id: 'agent_zeta', status: 'done', started_ago_secs: 100 },
        ],
        // 400 over 40 days: about 300 inside the 30-day list window, the rest only readable by id.
        generate: [{ agent_id: 'agent_alpha', count: 400, days: 40, seed: 3 }],
      }),
    );
    // Slow detail reads keep the backfill running long enough to watch its progress.
    await s.emu.addFault({ method: 'GET', path_prefix: '/v1/conversations/', delay_ms: 40, times: 200 });
  });
  after(() => s.cleanup());

  it('backfills the 30-day window with scan progress, storing each done conversation once', async () => {
    const inWindow = await s.emu.conversationIds({ agent_id: 'agent_alpha', within_window: true });
    const doneInWindow = await s.emu.conversationIds({ agent_id: 'agent_alpha', within_window: true, status: 'done' });
    assert.ok(doneInWindow.length >= 250 && doneInWindow.length < 400, `a few hundred in the window (${doneInWindow.length})`);

    const saved = await save(s.api, ['agent_alpha']);
    assert.equal(saved.status, 200);
    assert.equal(saved.body.agents[0].import_state, 'importing');

    const seen: Array<{ state: string; scanned: number; total: number }> = [];
    const final = await waitForAgent(s.api, 'agent_alpha', 'the backfill to finish', (a) => {
      seen.push({ state: a.import_state, ...a.scan });
      return a.import_state === 'active';
    });
    assert.ok(seen.some((x) => x.state === 'importing' && x.total > 0 && x.scanned < x.total), `progress was visible: ${JSON.stringify(seen.slice(0, 10))}`);
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i]!.scanned >= seen[i - 1]!.scanned, 'scanned never goes back');
    assert.equal(final.scan.total, inWindow.length, 'every listed conversation counted');
    assert.equal(final.scan.scanned, inWindow.length - 2, 'all settled but the two still running on the platform');
    assert.deepEqual(final.failures, []);

    const stored = await allConversations(s.api, 'default', '&source=platform_a');
    const ids = stored.map((c) => c.external_id);
    assert.equal(new Set(ids).size, ids.length, 'no duplicates');
    assert.deepEqual([...ids].sort(), [...doneInWindow].sort(), 'exactly the done conversations of the window');
    assert.ok(stored.every((c) => c.platform_agent_id === 'agent_alpha' && c.source === 'platform_a'));

    const setup = await platformASetup(s.api);
    assert.ok(setup.last_received_at, 'last_received_at is set once conversations arrived');
    assert.equal(setup.health.state, 'healthy');
    const newest = stored.reduce((a, b) => (a.started_at > b.started_at ? a : b));
    assert.equal(final.last_conversation_at, newest.started_at);
    assert.ok(final.last_success_at);
  });

  it('maps the transcript: roles, times, latencies, tool calls, duration and termination reason', async () => {
    const [summary] = (await s.api.get('/api/conversations?project=default&limit=1')).body.items;
    const detail = (await s.api.get(`/api/conversations/${summary.id}`)).body;
    const platform = await (await fetch(`${s.emu.url}/v1/conversations/${summary.external_id}`, { headers: { 'x-api-key': FULL_KEY } })).json();
    assert.equal(detail.started_at, new Date(platform.start_time_unix * 1000).toISOString());
    assert.equal(detail.duration_ms, platform.duration_secs * 1000);
    assert.equal(detail.ended_at, new Date((platform.start_time_unix + platform.duration_secs) * 1000).toISOString());
    assert.equal(detail.termination_reason, platform.termination_reason);
    assert.equal(detail.turns.length, platform.transcript.length);
    platform.transcript.forEach((t: any, i: number) => {
      const turn = detail.turns[i];
      assert.equal(turn.role, t.role);
      assert.equal(turn.text, t.message);
      assert.equal(turn.offset_ms, t.time_in_call_secs * 1000);
      assert.equal(turn.started_at, new Date((platform.start_time_unix + t.time_in_call_secs) * 1000).toISOString());
      assert.equal(turn.latency_ms, t.role === 'agent' ? (t.latency_ms ?? null) : null);
      assert.equal(turn.tool_name, t.tool_name ?? null);
    });
    const tools = platform.transcript.filter((t: any) => t.role === 'tool');
    assert.deepEqual(detail.tool_calls.map((c: any) => c.name), tools.map((t: any) => t.tool_name));
    assert.deepEqual(detail.tool_calls.map((c: any) => c.output), tools.map((t: any) => JSON.parse(t.message)));
    assert.equal(detail.latency.agent_turns, platform.transcript.filter((t: any) => t.role === 'agent' && t.latency_ms !== undefined).length);
  });

  it('picks up a new conversation on a later poll', async () => {
    const before = (await platformASetup(s.api)).agents[0].scan.total;
    await s.emu.admin('POST', '/_admin/conversations', { conversation_id: 'conv_new_call', agent_id: 'agent_alpha', status: 'done', start_time_unix: now() });
    const found = await waitFor('the new conversation', async () => (await allConversations(s.api)).find((c) => c.external_id === 'conv_new_call'));
    assert.equal(found.source, 'platform_a');
    const agent = await waitForAgent(s.api, 'agent_alpha', 'the count to grow', (a) => a.scan.total === before + 1);
    assert.equal(agent.import_state, 'active');
  });

  it('imports a call that was still running when listed, once the platform has finished it', async () => {
    const { last_seq } = await s.emu.requests();
    await waitFor('the importer to re-check the running call twice', async () => {
      const { requests } = await s.emu.requests(last_seq);
      return requests.filter((r) => r.path === '/v1/conversations/conv_live').length >= 2;
    });
    assert.ok(!(await allConversations(s.api)).some((c) => c.external_id === 'conv_live'), 'not stored while in progress');
    await s.emu.admin('PATCH', '/_admin/conversations/conv_live', { status: 'done' });
    await s.emu.admin('PATCH', '/_admin/conversations/conv_processing', { status: 'done' });
    const agent = await waitForAgent(s.api, 'agent_alpha', 'both running calls to be imported', (a) => a.scan.scanned === a.scan.total);
    assert.deepEqual(agent.failures, []);
    const ids = (await allConversations(s.api)).map((c) => c.external_id);
    assert.ok(ids.includes('conv_live') && ids.includes('conv_processing'));
    assert.ok(!ids.includes('conv_platform_failed'), 'a call that failed on the platform has nothing to import');
    assert.ok(!ids.includes('conv_other_agent'), 'only the selected agents');
    assert.equal(new Set(ids).size, ids.length);
  });

  it('keeps last_received_at null for an agent without conversations, while healthy and active', async () => {
    await s.api.post('/v1/projects', { name: 'quiet' });
    assert.equal((await save(s.api, ['agent_empty'], FULL_KEY, 'quiet')).status, 200);
    const agent = await waitForAgent(s.api, 'agent_empty', 'the empty backfill', (a) => a.import_state === 'active', 'quiet');
    assert.deepEqual(agent.scan, { scanned: 0, total: 0 });
    assert.ok(agent.last_success_at);
    const setup = await platformASetup(s.api, 'quiet');
    assert.equal(setup.health.state, 'healthy');
    assert.equal(setup.last_received_at, null);
    assert.equal(agent.last_conversation_at, null);
  });
});
