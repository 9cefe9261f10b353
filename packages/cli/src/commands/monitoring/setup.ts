import { checkbox, password } from '@inquirer/prompts';
import { Args, Flags } from '@oclif/core';
import type { PlatformAgentChoice } from '@svc/contract';
import { BaseCommand } from '../../base-command.js';
import { ExitCode } from '../../lib/exit-codes.js';
import { readStdin } from '../../lib/stdin.js';

export default class MonitoringSetup extends BaseCommand<typeof MonitoringSetup> {
  static override description =
    'Monitor platform_a voice agents: check a platform key, pick agents, start importing their production calls (30-day backfill, then new calls)';
  static override examples = [
    '<%= config.bin %> monitoring setup platform-a --project default',
    'printf %s "$PLATFORM_A_KEY" | <%= config.bin %> monitoring setup platform-a --api-key-stdin --agent agent_123 --agent "Front Desk" --json',
  ];
  static override args = {
    platform: Args.string({ required: true, options: ['platform-a'], description: 'the platform to monitor' }),
  };
  static override flags = {
    'api-key-stdin': Flags.boolean({ description: 'read the platform_a key from stdin instead of prompting for it' }),
    agent: Flags.string({ multiple: true, description: 'a voice agent to monitor, by id or name (repeatable); skips the picker' }),
  };

  async run() {
    const project = this.project;
    const apiKey = await this.platformKey();
    this.note('Checking the key with platform_a...');
    const found = await this.client.monitoring.discoverPlatformA(apiKey, { project });
    if (found.length === 0) this.error('The key sees no voice agents on platform_a.', { exit: ExitCode.invalid });
    const chosen = await this.choose(found, project);
    const setup = await this.client.monitoring.savePlatformA({ api_key: apiKey, agents: chosen }, { project });
    this.out(`Monitoring ${setup.agents.map((a) => a.name).join(', ')} with the key ${setup.api_key_hint}.`);
    this.out('The 30-day backfill has started; follow it with: svc monitoring status');
    return setup;
  }

  private async platformKey(): Promise<string> {
    let key: string;
    if (this.flags['api-key-stdin']) key = await readStdin();
    else if (process.stdin.isTTY) key = await this.prompt(() => password({ message: 'platform_a API key (not shown)', mask: false }));
    else this.error('stdin is not a terminal: pass the key on stdin with --api-key-stdin.', { exit: ExitCode.usage });
    key = key.trim();
    if (!key) this.error('The platform_a key is empty.', { exit: ExitCode.usage });
    return key;
  }

  private async choose(found: PlatformAgentChoice[], project: string | undefined): Promise<PlatformAgentChoice[]> {
    const wanted = this.flags.agent ?? [];
    if (wanted.length) {
      return wanted.map((ref) => {
        const agent = found.find((a) => a.id === ref) ?? found.find((a) => a.name === ref);
        if (!agent) this.error(`No voice agent "${ref}" is visible with this key; choose from: ${found.map((a) => `${a.name} (${a.id})`).join(', ')}.`, { exit: ExitCode.invalid });
        return agent;
      });
    }
    if (!process.stdin.isTTY) this.error('stdin is not a terminal: name the agents with --agent.', { exit: ExitCode.usage });
    const current = new Set((await this.client.monitoring.list({ project })).find((s) => s.platform === 'platform_a')?.agents.map((a) => a.id));
    const ids = await this.prompt(() =>
      checkbox({
        message: 'Voice agents to monitor (space to select, enter to confirm)',
        choices: found.map((a) => ({ name: `${a.name}  (${a.id})`, value: a.id, checked: current.has(a.id) })),
        required: true,
        pageSize: 15,
      }),
    );
    return found.filter((a) => ids.includes(a.id));
  }

  /** Runs a prompt; Ctrl-C ends the command without a stack trace. */
  private async prompt<T>(ask: () => Promise<T>): Promise<T> {
    try {
      return await ask();
    } catch (err) {
      if ((err as Error).name === 'ExitPromptError') this.error('Cancelled.', { exit: ExitCode.error });
      throw err;
    }
  }
}
