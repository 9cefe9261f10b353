import { Flags } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';
import { voiceFlags, voiceFromFlags } from '../../lib/inputs.js';

export default class PersonasCreate extends BaseCommand<typeof PersonasCreate> {
  static override description = 'Create a persona (a simulated caller) with optional voice settings';
  static override examples = ['<%= config.bin %> personas create --name "Impatient Irene" --description "Talks fast" --language en-US --speed 1.2'];
  static override flags = {
    name: Flags.string({ description: 'persona name (unique in the project)', required: true }),
    description: Flags.string({ description: 'who the caller is and how they talk' }),
    default: Flags.boolean({ description: 'make it the project default persona' }),
    ...voiceFlags,
  };

  async run() {
    const f = this.flags;
    const voice = voiceFromFlags(f);
    let persona = await this.client.personas.create({
      name: f.name,
      ...(f.description ? { description: f.description } : {}),
      ...(voice ? { voice } : {}),
      ...(this.project ? { project: this.project } : {}),
    });
    if (f.default) persona = await this.client.personas.update(persona.id, { is_default: true });
    this.out(`Created ${persona.id} "${persona.name}"${persona.is_default ? ' (project default)' : ''}`);
    return persona;
  }
}
