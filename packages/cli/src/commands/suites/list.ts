import { BaseCommand } from '../../base-command.js';
import { renderTable } from '../../lib/table.js';

export default class SuitesList extends BaseCommand<typeof SuitesList> {
  static override description = 'List the project\'s test suites, newest first';
  static override examples = ['<%= config.bin %> suites list'];

  async run() {
    const suites = await this.client.testSuites.list({ ...(this.project ? { projectId: this.project } : {}), pageSize: 100 }).toArray();
    this.out(renderTable(['id', 'name', 'tests', 'description'], suites.map((s) => [s.id, s.name, s.testIds.length, s.description])));
    return { testSuites: suites };
  }
}
