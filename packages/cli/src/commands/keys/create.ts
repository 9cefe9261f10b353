import { Flags } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';

export default class KeysCreate extends BaseCommand<typeof KeysCreate> {
  static override description = 'Create an API key; its secret is printed once';
  static override examples = [
    '<%= config.bin %> keys create --name ci',
    '<%= config.bin %> keys create --name worker --project-id prj_... --json',
  ];
  static override flags = {
    name: Flags.string({ description: 'label' }),
    'project-id': Flags.string({ description: 'make a project-scoped key for this project (id or name)' }),
  };

  async run() {
    const key = await this.client.keys.create({
      ...(this.flags.name ? { name: this.flags.name } : {}),
      ...(this.flags['project-id'] ? { project_id: this.flags['project-id'] } : {}),
    });
    this.out(`Created ${key.id} (${key.scope}${key.project_id ? ` ${key.project_id}` : ''})\n\n  ${key.secret}\n`);
    this.note('Store this secret now: it is shown only once and cannot be recovered.');
    return key;
  }
}
