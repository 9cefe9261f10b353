import { Flags } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';
import { renderTable } from '../../lib/table.js';

export default class TestsList extends BaseCommand<typeof TestsList> {
  static override description = 'List the project\'s tests at their current versions, newest first';
  static override examples = ['<%= config.bin %> tests list', '<%= config.bin %> tests list --project staging --json'];
  static override flags = {
    max: Flags.integer({ description: 'stop after this many tests', min: 1 }),
  };

  async run() {
    const tests = [];
    for await (const test of this.client.tests.list({ ...(this.project ? { project: this.project } : {}), limit: 100 })) {
      tests.push(test);
      if (this.flags.max && tests.length >= this.flags.max) break;
    }
    this.out(renderTable(['id', 'name', 'version', 'version id', 'updated'], tests.map((t) => [t.id, t.name, t.version, t.version_id, t.updated_at])));
    return { tests };
  }
}
