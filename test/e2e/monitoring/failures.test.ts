import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, client } from '../../helpers/http.js';
import { hostCommand } from '../../helpers/server.js';
import { FULL_KEY, type Stack, allConversations, baseSeed, platformASetup, save, startStack, waitForAgent } from './fixtures.js';

const STUCK = 1_000_000;
const ago = (secs: number) => Math.floor(Date.now() / 1000) - secs;

describe('import failures and replay', () => {
  let s: Stack;
  const failureOf = async (conversationId: string) => (await platformASetup(s.api)).agents[0].failures.find((f: any) => f.conversation_id === conversationId);
  const replay = (id: string, api = s.api) => api.post(`/api/monitoring/platform_a/failures/${id}/replay?project=default`);
  const stored = async (conversationId: string) => (await allConversations(s.api)).filter((c) => c.external_id === conversationId);

  before(async () => {
    const stuck = (id: string, agoSecs: number) => ({ conversation_id: id, agent_id: 'agent_alpha', status: 'done', started_ago_secs: agoSecs, incomplete_reads: STUCK });
    s = await startStack(
      baseSeed({
        conversations: [stuck('conv_flaky', 3600), stuck('conv_race', 7200), stuck('conv_aging', 10800), stuck('conv_refusals', 14400)],
        generate: [{ agent_id: 'agent_alpha', count: 30, days: 3 }],
      }),
    );
    assert.equal((await save(s.api, ['agent_alpha'])).status, 200);
  });
  after(() => s.cleanup());

  it('opens a failure for a conversation that stays incomplete, and shows the agent degraded', async () => {
    const agent = await waitForAgent(s.api, 'agent_alpha', 'four failures', (a) => a.failures.length === 4 && a.scan.scanned === a.scan.total);
    assert.equal(agent.import_state, 'degraded');
    for (const f of agent.failures) {
      assert.match(f.id, /^imf_/);
      assert.match(f.reason, /^incomplete: /);
      assert.equal(f.attempts, 3, 'read three times before giving up');
      assert.ok(f.first_failed_at <= f.last_failed_at);
    }
    assert.equal((await allConversations(s.api)).length, 30, 'the complete ones are stored');
    assert.deepEqual(await stored('conv_flaky'), []);
  });

  it('answers 409 conversation_incomplete while the platform still cannot supply it', async () => {
    const failure = await failureOf('conv_flaky');
    const res = await replay(failure.id);
    assertError(res, 409, 'conversation_incomplete');
    const after = await failureOf('conv_flaky');
    assert.equal(after.attempts, failure.attempts + 1);
    assert.ok(after.last_failed_at >= failure.last_failed_at);
  });

  it('resolves by replay (written), then answers already without calling the platform', async () => {
    const failure = await failureOf('conv_flaky');
    await s.emu.admin('PATCH', '/_admin/conversations/conv_flaky', { incomplete_reads: 0 });
    const res = await replay(failure.id);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { id: failure.id, status: 'resolved', write: 'written' });
    assert.equal((await stored('conv_flaky')).length, 1);
    assert.equal(await failureOf('conv_flaky'), undefined, 'no longer listed as open');

    const { last_seq } = await s.emu.requests();
    const again = await replay(failure.id);
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, { id: failure.id, status: 'resolved', write: 'already' });
    assert.equal((await stored('conv_flaky')).length, 1, 'never a second conversation');
    const { requests } = await s.emu.requests(last_seq);
    assert.ok(!requests.some((r) => r.path === '/v1/conversations/conv_flaky'), 'a resolved failure needs no platform call');
  });

  it('lets exactly one of two concurrent replays run; the other gets 409 replay_in_progress', async () => {
    const failure = await failureOf('conv_race');
    await s.emu.admin('PATCH', '/_admin/conversations/conv_race', { incomplete_reads: 0 });
    await s.emu.addFault({ path_prefix: '/v1/conversations/conv_race', delay_ms: 1500, times: 1 });
    const results = await Promise.all([replay(failure.id), replay(failure.id)]);
    const statuses = results.map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, 409]);
    assertError(results.find((r) => r.status === 409)!, 409, 'replay_in_progress');
    assert.equal(results.find((r) => r.status === 200)!.body.write, 'written');
    assert.equal((await stored('conv_race')).length, 1);
  });

  it('replays a conversation older than the 30-day list window by its id', async () => {
    const failure = await failureOf('conv_aging');
    const startedAt = ago(40 * 86400);
    await s.emu.admin('PATCH', '/_admin/conversations/conv_aging', { start_time_unix: startedAt, incomplete_reads: 0 });
    const listed = await (await fetch(`${s.emu.url}/v1/conversations?agent_id=agent_alpha&page_size=100`, { headers: { 'x-api-key': FULL_KEY } })).json();
    assert.ok(!listed.conversations.some((c: any) => c.conversation_id === 'conv_aging'), 'the platform no longer lists it');
    const res = await replay(failure.id);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.write, 'written');
    const [conversation] = await stored('conv_aging');
    assert.equal(conversation.started_at, new Date(startedAt * 1000).toISOString());
  });

  it('refuses with 503 on a platform outage and 429 with Retry-After on its rate limit, keeping the failure open', async () => {
    const failure = await failureOf('conv_refusals');
    await s.emu.addFault({ path_prefix: '/v1/conversations/conv_refusals', status: 503, times: 1 });
    assertError(await replay(failure.id), 503, 'provider_unavailable');
    await s.emu.addFault({ path_prefix: '/v1/conversations/conv_refusals', status: 429, retry_after: 3, times: 1 });
    const limited = await replay(failure.id);
    assertError(limited, 429, 'too_many_requests');
    assert.equal(limited.headers.get('retry-after'), '3');
    const open = await failureOf('conv_refusals');
    assert.ok(open, 'still open');
    const agent = (await platformASetup(s.api)).agents[0];
    assert.equal(agent.import_state, 'degraded');
  });

  it('refuses unknown ids, viewers and other projects', async () => {
    const failure = await failureOf('conv_refusals');
    assertError(await replay('imf_doesnotexist'), 404, 'not_found');
    const viewer = await hostCommand<{ email: string }>(s.server.dataDir, ['user', 'create', '--email', 'v@example.com', '--role', 'viewer']);
    const viewerKey = (await hostCommand<{ secret: string }>(s.server.dataDir, ['keys', 'create', '--email', viewer.email])).secret;
    assertError(await replay(failure.id, client(s.server.url, viewerKey)), 403, 'not_permitted');
    const other = await s.api.post('/v1/projects', { name: 'elsewhere' });
    assertError(await s.api.post(`/api/monitoring/platform_a/failures/${failure.id}/replay?project=${other.body.project.id}`), 404, 'not_found');
    const ids = (await allConversations(s.api)).map((c) => c.external_id);
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(ids.length, 33);
  });
});
