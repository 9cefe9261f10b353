import { Args } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';

const PATHS = { 'platform-a': 'platform_a', platform_a: 'platform_a', 'platform-b': 'platform_b-agents', 'platform_b-agents': 'platform_b-agents' } as const;

export default class MonitoringRemove extends BaseCommand<typeof MonitoringRemove> {
  static override description = 'Remove a monitoring setup; stored production conversations are kept (platform_a polling stops at once)';
  static override examples = ['<%= config.bin %> monitoring remove platform-a', '<%= config.bin %> monitoring remove platform-b --project default'];
  static override args = {
    platform: Args.string({ required: true, options: Object.keys(PATHS), description: 'platform-a or platform-b' }),
  };

  async run() {
    const { args } = await this.parse(MonitoringRemove);
    const platform = PATHS[args.platform as keyof typeof PATHS];
    await this.client.monitoring.remove(platform, { project: this.project });
    this.out(`Removed the ${platform} setup; stored conversations are kept.`);
    if (platform !== 'platform_a') this.note('A deployed platform_b worker keeps exporting spans until its code or credentials are removed.');
    return { removed: platform };
  }
}
