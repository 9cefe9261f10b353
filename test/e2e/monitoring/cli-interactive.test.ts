import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../../helpers/emulator.js';
import { cliHome } from '../../helpers/cli.js';
import { CLI_BIN } from '../../helpers/paths.js';
import { FULL_KEY, type Stack, baseSeed, platformASetup, startStack } from './fixtures.js';

// util-linux `script` gives the CLI a real terminal, so the prompts run as a user sees them.
const SCRIPT = '/usr/bin/script';

describe('svc monitoring setup platform-a, interactively', { skip: !existsSync(SCRIPT) && 'needs util-linux script for a terminal' }, () => {
  let s: Stack;
  before(async () => {
    s = await startStack(baseSeed());
  });
  after(() => s.cleanup());

  it('asks for the key without echoing it and picks agents with a checkbox', async () => {
    const home = cliHome();
    const command = [process.execPath, CLI_BIN, 'monitoring', 'setup', 'platform-a', '--url', s.server.url, '--api-key', s.admin.api_key, '--project', 'default']
      .map((a) => `'${a}'`)
      .join(' ');
    const child = spawn(SCRIPT, ['-qfec', command, '/dev/null'], { env: { ...process.env, HOME: home, XDG_CONFIG_HOME: home, NO_COLOR: '1', COLUMNS: '120' } });
    let screen = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (screen += d));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await waitFor('the key prompt', async () => screen.includes('platform_a API key'), 30_000);
      child.stdin.write(`${FULL_KEY}\r`);
      await waitFor('the agent picker', async () => screen.includes('Voice agents to monitor') && screen.includes('Alpha Billing'), 30_000);
      // Choices are sorted by name: Alpha Billing, Middle Support, Quiet Line, Zeta Reception. Pick the first and the third.
      child.stdin.write(' ');
      await new Promise((r) => setTimeout(r, 200));
      child.stdin.write('\x1b[B\x1b[B');
      await new Promise((r) => setTimeout(r, 200));
      child.stdin.write(' ');
      await new Promise((r) => setTimeout(r, 200));
      child.stdin.write('\r');
      assert.equal(await exited, 0, screen);
    } finally {
      child.kill();
    }
    assert.ok(!screen.includes(FULL_KEY), 'the key is never echoed');
    assert.match(screen, /Monitoring Alpha Billing, Quiet Line with the key \.\.\.0001/);
    const setup = await platformASetup(s.api);
    assert.deepEqual(setup.agents.map((a: any) => a.id), ['agent_alpha', 'agent_empty']);
  });
});
