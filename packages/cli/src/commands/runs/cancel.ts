import { Args } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';

export default class RunsCancel extends BaseCommand<typeof RunsCancel> {
  static override description = 'Cancel a queued or running run (a finished run exits 5)';
  static override examples = ['<%= config.bin %> runs cancel run_...'];
  static override args = { runId: Args.string({ description: 'run id (run_...)', required: true }) };

  async run() {
    const { args } = await this.parse(RunsCancel);
    const run = await this.client.runs.cancel(args.runId);
    this.out(`Run ${run.id} is ${run.status} (${run.summary.calls.canceled} calls canceled, ${run.summary.calls.passed + run.summary.calls.failed + run.summary.calls.error} had finished)`);
    return run;
  }
}
