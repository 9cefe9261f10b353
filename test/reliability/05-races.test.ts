// Suite 5, races: concurrent edits of one test version, concurrent replays of
// one import failure, key revocation under load, and the rate limit of one
// organization hit through two keys while a second organization works beside it.
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import { FULL_KEY, type Stack, allConversations, baseSeed, platformASetup, save, startStack, waitForAgent } from '../e2e/monitoring/fixtures.js';
import { client } from '../helpers/http.js';
import { type Bootstrap, hostCommand, startBootstrappedServer } from '../helpers/server.js';
import { PROFILE, recordFigures } from './figures.js';
import { pacedLoad, tally } from './paced.js';

const FULL = PROFILE === 'full';
const PATCH_ROUNDS = FULL ? 10 : 3;
const PATCHES = 50;
const REPLAYS = 20;
const REPLAY_ROUNDS = FULL ? 6 : 2;
const REVOKE_RATE = 200;
/** Load before the revoke is sent, and requests still sent once its answer is in. */
const REVOKE_AFTER_MS = 1500;
const SENT_AFTER_REVOKE = FULL ? 1000 : 300;
const RATE_LIMIT = 150;
const UNIQUE = 20;

/** What the suite saw; printed at the end even when an assertion failed. */
const figures = {
  checks: 0,
  failures: 0,
  defects_fixed: 0, // every race here held; the second organization it needed is `svc-server organization create`
  patch_rounds: 0,
  patch_winners: 0,
  patch_conflicts: 0,
  unique_winners: 0,
  unique_conflicts: 0,
  replay_rounds: 0,
  replay_owners: 0,
  replay_in_progress: 0,
  duplicate_conversations: 0,
  revoke_requests: 0,
  sent_after_revoke: 0,
  successes_after_revoke: 0,
  org1_ok: 0,
  org1_429: 0,
  org2_429: 0,
};

/** Counts a check and, when it does not hold, a failure; then asserts it. */
function check(ok: boolean, message: string): void {
  figures.checks += 1;
  if (!ok) figures.failures += 1;
  assert.ok(ok, message);
}

describe(`suite 5: races (${PROFILE} profile)`, () => {
  let s: Stack;
  after(async () => {
    recordFigures('05-races', figures);
    await s?.cleanup();
  });

  before(async () => {
    // One stuck call per replay round: the platform keeps it incomplete until a round releases it.
    const stuck = Array.from({ length: REPLAY_ROUNDS }, (_, i) => ({
      conversation_id: `conv_race_${i}`,
      agent_id: 'agent_alpha',
      status: 'done',
      started_ago_secs: 3600 * (i + 1),
      incomplete_reads: 1_000_000,
    }));
    s = await startStack(baseSeed({ conversations: stuck, generate: [{ agent_id: 'agent_alpha', count: 5, days: 2 }] }), {
      SVC_RATE_LIMIT_PER_MINUTE: '1000000',
    });
    assert.equal((await save(s.api, ['agent_alpha'], FULL_KEY)).status, 200);
  });

  it(`${PATCHES} concurrent PATCHes from one version: exactly one winner, the rest version_conflict`, async () => {
    for (let round = 0; round < PATCH_ROUNDS; round++) {
      const created = await s.api.post('/api/tests', { name: `race ${round}`, scenario: 'v1', expected_behaviors: ['greets'], project: 'default' });
      assert.equal(created.status, 201, created.text);
      const v1 = created.body;
      const results = await Promise.all(
        Array.from({ length: PATCHES }, (_, i) => s.api.patch(`/api/tests/${v1.id}`, { expected_version_id: v1.version_id, scenario: `edit ${i}` })),
      );
      const won = results.filter((r) => r.status === 200);
      const lost = results.filter((r) => r.status === 409 && r.body.error === 'version_conflict');
      figures.patch_rounds += 1;
      figures.patch_winners += won.length;
      figures.patch_conflicts += lost.length;
      check(won.length === 1, `round ${round}: ${JSON.stringify(tally(results.map((r) => r.status)))}`);
      check(lost.length === PATCHES - 1, `round ${round}: ${lost.length} version_conflict`);
      const current = won[0]!.body.version_id;
      check(
        lost.every((r) => r.body.details?.expected_version_id === v1.version_id && r.body.details?.current_version_id === current),
        'every conflict names the stale and the winning version',
      );
      const history = await s.api.get(`/api/tests/${v1.id}/versions`);
      check(JSON.stringify(history.body.items.map((v: { version: number }) => v.version)) === '[2,1]', `exactly one new version: ${history.text}`);
      check(history.body.items[0].scenario === won[0]!.body.scenario, 'the stored version is the winner\'s');
    }
  });

  it(`${REPLAYS} concurrent replays of one import failure: exactly one owner, no duplicate conversation`, async () => {
    const agent = await waitForAgent(s.api, 'agent_alpha', 'the import failures', (a) => a.failures.length === REPLAY_ROUNDS && a.scan.scanned === a.scan.total);
    for (let round = 0; round < REPLAY_ROUNDS; round++) {
      const conversationId = `conv_race_${round}`;
      const failure = agent.failures.find((f: { conversation_id: string }) => f.conversation_id === conversationId);
      await s.emu.admin('PATCH', `/_admin/conversations/${conversationId}`, { incomplete_reads: 0 });
      // Odd rounds slow the platform's answer so every contender meets a held lease; even rounds race bare.
      if (round % 2 === 1) await s.emu.addFault({ path_prefix: `/v1/conversations/${conversationId}`, delay_ms: 1000, times: 1 });
      const replay = () => s.api.post(`/api/monitoring/platform_a/failures/${failure.id}/replay?project=default`);
      const results = await Promise.all(Array.from({ length: REPLAYS }, replay));
      const written = results.filter((r) => r.status === 200 && r.body.write === 'written');
      const inProgress = results.filter((r) => r.status === 409 && r.body.error === 'replay_in_progress');
      const already = results.filter((r) => r.status === 200 && r.body.write === 'already');
      figures.replay_rounds += 1;
      figures.replay_owners += written.length;
      figures.replay_in_progress += inProgress.length;
      const statuses = JSON.stringify(tally(results.map((r) => (r.status === 200 ? `200 ${r.body.write}` : `${r.status} ${r.body.error}`))));
      check(written.length === 1, `round ${round}: one owner wrote: ${statuses}`);
      check(written.length + inProgress.length + already.length === REPLAYS, `round ${round}: only written, already or replay_in_progress: ${statuses}`);
      const stored = (await allConversations(s.api, 'default', '&source=platform_a')).filter((c) => c.external_id === conversationId);
      figures.duplicate_conversations += Math.max(0, stored.length - 1);
      check(stored.length === 1, `round ${round}: ${stored.length} conversations stored for ${conversationId}`);
      const again = await replay();
      check(again.status === 200 && again.body.write === 'already', `a later replay answers already: ${again.text}`);
    }
    const setup = await platformASetup(s.api);
    check(setup.agents[0].failures.length === 0, 'no failure is left open');
    const ids = (await allConversations(s.api, 'default', '&source=platform_a')).map((c) => c.external_id);
    check(new Set(ids).size === ids.length, `no duplicate conversation among ${ids.length}`);
  });

  it(`${UNIQUE} concurrent creates of one name (or email), and restores of one archived agent: exactly one succeeds, the rest 409`, async () => {
    const agent = (await s.api.post('/v1/agents?projectId=default', { name: 'unique race agent', agentPlatform: 'custom' })).body.agent;
    const cases: [string, () => Promise<{ status: number; body: any }>, number, string][] = [
      ['project', () => s.api.post('/v1/projects', { name: 'race project' }), 201, 'name_taken'],
      ['test', () => s.api.post('/api/tests', { name: 'race test', scenario: 's', expected_behaviors: ['b'], project: 'default' }), 201, 'name_taken'],
      ['persona', () => s.api.post('/api/personas', { name: 'race persona', project: 'default' }), 201, 'name_taken'],
      ['suite', () => s.api.post('/v1/test-suites?projectId=default', { name: 'race suite' }), 201, 'name_taken'],
      ['agent', () => s.api.post('/v1/agents?projectId=default', { name: 'race agent', agentPlatform: 'custom' }), 201, 'name_taken'],
      ['connection', () => s.api.post(`/v1/agents/${agent.id}/connections?projectId=default`, { name: 'race', connectionType: 'http_chat', config: { url: 'http://127.0.0.1:9/x' } }), 201, 'name_taken'],
      ['member', () => s.api.post('/v1/members', { email: 'race@example.test', role: 'member' }), 201, 'email_taken'],
    ];
    // Last: archive the agent (its connection was created above), then race the restores.
    const archive = async () => assert.equal((await s.api.post(`/v1/agents/${agent.id}/archive?projectId=default`, {})).status, 200);
    cases.push(['restore', () => s.api.post(`/v1/agents/${agent.id}/restore?projectId=default`, {}), 200, 'not_archived']);
    for (const [what, create, success, code] of cases) {
      if (what === 'restore') await archive();
      const results = await Promise.all(Array.from({ length: UNIQUE }, create));
      const won = results.filter((r) => r.status === success).length;
      const refused = results.filter((r) => r.status === 409 && r.body.error === code).length;
      figures.unique_winners += won;
      figures.unique_conflicts += refused;
      check(won === 1 && refused === UNIQUE - 1, `${what}: ${JSON.stringify(tally(results.map((r) => `${r.status} ${r.body?.error ?? ''}`)))}`);
    }
  });

  it(`key revocation under ${REVOKE_RATE} req/s: no success for a request sent after the revoke answered`, async () => {
    const created = await s.api.post('/api/keys', { name: 'revoked under load' });
    assert.equal(created.status, 201, created.text);
    const victim = client(s.server.url, created.body.secret);
    let revokedAt = Number.POSITIVE_INFINITY;
    let revokeStatus = 0;
    const revoke = (async () => {
      await new Promise((resolve) => setTimeout(resolve, REVOKE_AFTER_MS));
      const res = await s.api.post(`/api/keys/${created.body.id}/revoke`);
      revokedAt = performance.now(); // the revoke's answer has arrived: from here on nothing may succeed
      revokeStatus = res.status;
    })();
    /** Requests sent after the revoke's answer so far (send times increase, so count from the end). */
    const sentAfter = (times: readonly number[]) => {
      let n = 0;
      for (let i = times.length - 1; i >= 0 && times[i]! > revokedAt; i--) n++;
      return n;
    };
    // The load goes on until enough requests have left after the revoke's answer (however slow the server is).
    const results = await pacedLoad(async () => (await victim.get('/api/keys')).status, REVOKE_RATE, (times) => sentAfter(times) >= SENT_AFTER_REVOKE, REVOKE_RATE * 60);
    await revoke;
    assert.equal(revokeStatus, 200);
    const afterRevoke = results.filter((r) => r.sentAt > revokedAt);
    figures.revoke_requests += results.length;
    figures.sent_after_revoke += afterRevoke.length;
    figures.successes_after_revoke += afterRevoke.filter((r) => r.status !== 401).length;
    const before = results.filter((r) => r.receivedAt < revokedAt);
    check(before.some((r) => r.status === 200), 'the key worked under load before the revoke');
    check(afterRevoke.length >= SENT_AFTER_REVOKE, `enough requests were sent after the revoke (${afterRevoke.length})`);
    check(afterRevoke.every((r) => r.status === 401), `after the revoke: ${JSON.stringify(tally(afterRevoke.map((r) => r.status)))}`);
    check(results.every((r) => r.status === 200 || r.status === 401), `only 200 or 401: ${JSON.stringify(tally(results.map((r) => r.status)))}`);
  });

  it('rate limit: two keys of one organization get exactly the limit; a second organization in parallel gets no 429', async () => {
    const { server, admin, cleanup } = await startBootstrappedServer({ env: { SVC_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT) } });
    try {
      const other = await hostCommand<Bootstrap>(server.dataDir, ['organization', 'create', '--name', 'second', '--admin-email', 'second@example.test']);
      const spare = await hostCommand<{ secret: string }>(server.dataDir, ['keys', 'create', '--email', 'admin@localhost', '--name', 'second key']);
      const keys = [admin.api_key, spare.secret];
      const started = performance.now();
      // Org 1 offers twice its limit through two keys at once; org 2 sends just under its own limit meanwhile.
      const org1 = Promise.all(Array.from({ length: RATE_LIMIT * 2 }, (_, i) => client(server.url, keys[i % 2]).get('/api/keys')));
      const org2 = Promise.all(Array.from({ length: RATE_LIMIT - 10 }, () => client(server.url, other.api_key).get('/api/keys')));
      const [one, two] = await Promise.all([org1, org2]);
      const elapsed = performance.now() - started;
      // The windows are a minute long and begin at each organization's first request.
      assert.ok(elapsed < 50_000, `the burst must fit in one window to be judged (took ${Math.round(elapsed)} ms)`);
      figures.org1_ok += one.filter((r) => r.status === 200).length;
      figures.org1_429 += one.filter((r) => r.status === 429).length;
      figures.org2_429 += two.filter((r) => r.status === 429).length;
      check(one.filter((r) => r.status === 200).length === RATE_LIMIT, `org 1: ${JSON.stringify(tally(one.map((r) => r.status)))}`);
      check(one.filter((r) => r.status === 429).length === RATE_LIMIT, 'org 1: the rest is 429');
      check(one.filter((r) => r.status === 429).every((r) => r.body.error === 'too_many_requests' && Number(r.headers.get('retry-after')) >= 1), '429s carry the code and Retry-After');
      check(two.every((r) => r.status === 200), `org 2: ${JSON.stringify(tally(two.map((r) => r.status)))}`);
    } finally {
      await cleanup();
    }
  });
});
