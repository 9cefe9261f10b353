import { Args } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';

export default class MonitoringReplay extends BaseCommand<typeof MonitoringReplay> {
  static override description = 'Re-read one failed platform_a call by id and store it (never a second copy)';
  static override examples = ['<%= config.bin %> monitoring replay imf_4f9Qx...', '<%= config.bin %> monitoring replay imf_4f9Qx... --json'];
  static override args = {
    failureId: Args.string({ required: true, description: 'an import failure id (imf_...) from `svc monitoring status`' }),
  };

  async run() {
    const { args } = await this.parse(MonitoringReplay);
    const result = await this.client.monitoring.replayFailure(args.failureId, { project: this.project });
    this.out(`Resolved ${result.id}: ${result.write === 'written' ? 'the conversation is stored now' : 'the conversation was already stored'}.`);
    return result;
  }
}
