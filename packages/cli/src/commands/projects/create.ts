import { Args } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';

export default class ProjectsCreate extends BaseCommand<typeof ProjectsCreate> {
  static override description = 'Create a project (admins)';
  static override examples = ['<%= config.bin %> projects create checkout-agent'];
  static override args = { name: Args.string({ description: 'project name, unique in the organization', required: true }) };

  async run() {
    const { args } = await this.parse(ProjectsCreate);
    const project = await this.client.projects.create(args.name);
    this.out(`Created project ${project.name} (${project.id})`);
    return project;
  }
}
