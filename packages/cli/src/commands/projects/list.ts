import { BaseCommand } from '../../base-command.js';
import { renderTable } from '../../lib/table.js';

export default class ProjectsList extends BaseCommand<typeof ProjectsList> {
  static override description = 'List the organization\'s projects';
  static override examples = ['<%= config.bin %> projects list'];

  async run() {
    const projects = await this.client.projects.list().toArray();
    this.out(renderTable(['id', 'name', 'created'], projects.map((p) => [p.id, p.name, p.createdAt])));
    return { projects };
  }
}
