import { Args } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';
import { renderRun } from '../../lib/run-report.js';

export default class RunsShow extends BaseCommand<typeof RunsShow> {
  static override description = 'Show a run: status, per-call results, failed behaviors with the judge\'s rationale';
  static override examples = ['<%= config.bin %> runs show run_...', '<%= config.bin %> runs show run_... --json'];
  static override args = { runId: Args.string({ description: 'run id (run_...)', required: true }) };

  async run() {
    const { args } = await this.parse(RunsShow);
    const run = await this.client.runs.get(args.runId);
    this.out(renderRun(run));
    return run;
  }
}
