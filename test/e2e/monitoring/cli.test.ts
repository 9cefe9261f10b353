import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../../helpers/cli.js';
import { FULL_KEY, type Stack, baseSeed, startStack, waitForAgent } from './fixtures.js';

describe('svc monitoring (CLI)', () => {
  let s: Stack;
  const svc = (args: string[], input?: string) => runCli([...args, '--url', s.server.url, '--api-key', s.admin.api_key, '--project', 'default'], {}, input);

  before(async () => {
    s = await startStack(
      baseSeed({
        conversations: [{ conversation_id: 'conv_stuck', agent_id: 'agent_alpha', status: 'done', started_ago_secs: 600, incomplete_reads: 1_000_000 }],
        generate: [{ agent_id: 'agent_alpha', count: 12, days: 3 }, { agent_id: 'agent_zeta', count: 5, days: 3, seed: 2 }],
      }),
    );
  });
  after(() => s.cleanup());

  it('status says when nothing is set up', async () => {
    const res = await svc(['monitoring', 'status']);
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /No monitoring is set up/);
  });

  it('setup platform-a reads the key from stdin, picks agents by id or name, and never prints the key', async () => {
    const res = await svc(['monitoring', 'setup', 'platform-a', '--api-key-stdin', '--agent', 'agent_alpha', '--agent', 'Zeta Reception', '--json'], `${FULL_KEY}\n`);
    assert.equal(res.code, 0, res.stderr);
    const setup = JSON.parse(res.stdout);
    assert.deepEqual(setup.agents.map((a: any) => [a.id, a.name]), [['agent_alpha', 'Alpha Billing'], ['agent_zeta', 'Zeta Reception']]);
    assert.equal(setup.api_key_hint, `...${FULL_KEY.slice(-4)}`);
    assert.ok(!res.stdout.includes(FULL_KEY) && !res.stderr.includes(FULL_KEY));
  });

  it('setup refuses what it cannot do without a terminal, unknown agents and refused keys', async () => {
    const noAgent = await svc(['monitoring', 'setup', 'platform-a', '--api-key-stdin'], `${FULL_KEY}\n`);
    assert.equal(noAgent.code, 2);
    assert.match(noAgent.stderr, /--agent/);
    const noKey = await svc(['monitoring', 'setup', 'platform-a', '--agent', 'agent_alpha']);
    assert.equal(noKey.code, 2);
    assert.match(noKey.stderr, /--api-key-stdin/);
    const unknown = await svc(['monitoring', 'setup', 'platform-a', '--api-key-stdin', '--agent', 'Nobody'], `${FULL_KEY}\n`);
    assert.equal(unknown.code, 6);
    assert.match(unknown.stderr, /No voice agent "Nobody"/);
    const refused = await svc(['monitoring', 'setup', 'platform-a', '--api-key-stdin', '--agent', 'agent_alpha'], 'pa_wrong_key_9999\n');
    assert.equal(refused.code, 6);
    assert.match(refused.stderr, /invalid_platform_key/);
    assert.ok(!refused.stderr.includes('pa_wrong_key_9999'));
    const wrongPlatform = await svc(['monitoring', 'setup', 'platform-c']);
    assert.equal(wrongPlatform.code, 2);
  });

  it('status shows health, per-agent state and progress, and open failures', async () => {
    await waitForAgent(s.api, 'agent_alpha', 'the failure', (a) => a.failures.length === 1);
    await waitForAgent(s.api, 'agent_zeta', 'the backfill', (a) => a.import_state === 'active');
    const res = await svc(['monitoring', 'status']);
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /platform_a \(platform_a_poll\)/);
    assert.match(res.stdout, /health: healthy/);
    assert.match(res.stdout, /agent_alpha\s+Alpha Billing\s+degraded\s+13\/13/);
    assert.match(res.stdout, /agent_zeta\s+Zeta Reception\s+active\s+5\/5/);
    assert.match(res.stdout, /open import failures/);
    assert.match(res.stdout, /imf_\S+\s+agent_alpha\s+conv_stuck\s+3/);
    const json = JSON.parse((await svc(['monitoring', 'status', '--json'])).stdout);
    assert.equal(json.setups[0].agents[0].failures[0].conversation_id, 'conv_stuck');
  });

  it('replay reports a conflict while incomplete, then stores the call, then says it was already stored', async () => {
    const failureId = (await waitForAgent(s.api, 'agent_alpha', 'the failure', (a) => a.failures.length === 1)).failures[0].id;
    const early = await svc(['monitoring', 'replay', failureId]);
    assert.equal(early.code, 5);
    assert.match(early.stderr, /conversation_incomplete/);
    await s.emu.admin('PATCH', '/_admin/conversations/conv_stuck', { incomplete_reads: 0 });
    const done = await svc(['monitoring', 'replay', failureId, '--json']);
    assert.equal(done.code, 0, done.stderr);
    assert.deepEqual(JSON.parse(done.stdout), { id: failureId, status: 'resolved', write: 'written' });
    const again = await svc(['monitoring', 'replay', failureId]);
    assert.equal(again.code, 0);
    assert.match(again.stdout, /already stored/);
    const missing = await svc(['monitoring', 'replay', 'imf_missing']);
    assert.equal(missing.code, 4);
  });

  it('enable platform-b records the setup; remove takes either setup away', async () => {
    const enabled = await svc(['monitoring', 'enable', 'platform-b', '--json']);
    assert.equal(enabled.code, 0, enabled.stderr);
    assert.equal(JSON.parse(enabled.stdout).strategy, 'platform_b_otlp');
    assert.match((await svc(['monitoring', 'status'])).stdout, /platform_b_agents \(platform_b_otlp\)/);
    assert.equal((await svc(['monitoring', 'remove', 'platform-b'])).code, 0);
    const removed = await svc(['monitoring', 'remove', 'platform-a', '--json']);
    assert.equal(removed.code, 0, removed.stderr);
    assert.deepEqual(JSON.parse(removed.stdout), { removed: 'platform_a' });
    const again = await svc(['monitoring', 'remove', 'platform-a']);
    assert.equal(again.code, 4);
    assert.match(again.stderr, /not_found/);
  });
});
