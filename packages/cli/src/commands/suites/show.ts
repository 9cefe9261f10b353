import { Args } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';
import { renderTable } from '../../lib/table.js';

export default class SuitesShow extends BaseCommand<typeof SuitesShow> {
  static override description = 'Show a suite and its tests at their current versions';
  static override examples = ['<%= config.bin %> suites show sut_...'];
  static override args = { suiteId: Args.string({ description: 'suite id (sut_...)', required: true }) };

  async run() {
    const { args } = await this.parse(SuitesShow);
    const suite = await this.client.testSuites.get(args.suiteId);
    const tests = await this.client.testSuites.listTests(args.suiteId, { pageSize: 100 }).toArray();
    this.out(`${suite.id} "${suite.name}"${suite.description ? `: ${suite.description}` : ''}`);
    this.out(renderTable(['test', 'name', 'version', 'version id'], tests.map((t) => [t.id, t.name, t.version, t.versionId])));
    return { testSuite: suite, tests };
  }
}
