import { Flags } from '@oclif/core';
import { RunStatus } from '@svc/contract';
import { BaseCommand } from '../../base-command.js';
import { renderTable } from '../../lib/table.js';

export default class RunsList extends BaseCommand<typeof RunsList> {
  static override description = 'List the project\'s runs, newest first';
  static override examples = ['<%= config.bin %> runs list', '<%= config.bin %> runs list --status failed --agent agt_... --json'];
  static override flags = {
    status: Flags.string({ description: 'only runs with this status', options: RunStatus.options }),
    agent: Flags.string({ description: 'only runs against this agent (agt_...)' }),
    max: Flags.integer({ description: 'stop after this many runs', min: 1, default: 50 }),
  };

  async run() {
    const f = this.flags;
    const runs = [];
    for await (const run of this.client.runs.list({ ...(this.project ? { project: this.project } : {}), ...(f.status ? { status: f.status as RunStatus } : {}), ...(f.agent ? { agent_id: f.agent } : {}), limit: 100 })) {
      runs.push(run);
      if (runs.length >= f.max) break;
    }
    this.out(
      renderTable(
        ['id', 'status', 'calls', 'passed', 'failed', 'error', 'agent', 'created'],
        runs.map((r) => [r.id, r.status, r.summary.calls.total, r.summary.calls.passed, r.summary.calls.failed, r.summary.calls.error, r.agent_id, r.created_at]),
      ),
    );
    return { runs };
  }
}
