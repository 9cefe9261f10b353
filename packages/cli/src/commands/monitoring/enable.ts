import { Args } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';

export default class MonitoringEnable extends BaseCommand<typeof MonitoringEnable> {
  static override description = 'Record that the project monitors platform_b workers (their spans arrive at POST /v1/traces)';
  static override examples = ['<%= config.bin %> monitoring enable platform-b --project default'];
  static override args = {
    platform: Args.string({ required: true, options: ['platform-b'], description: 'platform-b' }),
  };

  async run() {
    const setup = await this.client.monitoring.enablePlatformB({ project: this.project });
    this.out(`platform_b monitoring is recorded (${setup.strategy}).`);
    this.out('In the worker: set SVC_URL and a project-scoped SVC_API_KEY, and call monitor_platform_b(ctx) before the agent session starts.');
    return setup;
  }
}
