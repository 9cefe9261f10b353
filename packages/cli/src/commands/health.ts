import { BaseCommand } from '../base-command.js';
import { ExitCode } from '../lib/exit-codes.js';

export default class Health extends BaseCommand<typeof Health> {
  static override description = 'Show whether the server and its two stores are reachable (exit 8 when not)';
  static override examples = ['<%= config.bin %> health', '<%= config.bin %> health --json'];

  async run() {
    const health = await this.client.health.check();
    this.out(`status: ${health.status}\nrelational store: ${health.relational}\nanalytics store: ${health.analytics}`);
    if (health.status !== 'ok') process.exitCode = ExitCode.unavailable;
    return health;
  }
}
