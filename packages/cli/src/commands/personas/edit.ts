import { Args, Flags } from '@oclif/core';
import { PersonaVoice } from '@svc/contract';
import { BaseCommand } from '../../base-command.js';
import { ExitCode } from '../../lib/exit-codes.js';
import { voiceFlags, voiceFromFlags } from '../../lib/inputs.js';

export default class PersonasEdit extends BaseCommand<typeof PersonasEdit> {
  static override description = 'Edit a persona: voice settings not given stay as they are; --unset clears one';
  static override examples = [
    '<%= config.bin %> personas edit prs_... --emotion calm --unset speed',
    '<%= config.bin %> personas edit prs_... --default',
  ];
  static override args = { personaId: Args.string({ description: 'persona id (prs_...)', required: true }) };
  static override flags = {
    name: Flags.string({ description: 'new name' }),
    description: Flags.string({ description: 'new description' }),
    default: Flags.boolean({ description: 'make it the project default persona' }),
    unset: Flags.string({ description: 'clear a voice setting (repeat)', multiple: true, options: Object.keys(PersonaVoice.shape).map((k) => k.replace(/_/g, '-')) }),
    ...voiceFlags,
  };

  async run() {
    const { args } = await this.parse(PersonasEdit);
    const f = this.flags;
    const voice = voiceFromFlags(f, f.unset ?? []);
    const body = {
      ...(f.name ? { name: f.name } : {}),
      ...(f.description !== undefined ? { description: f.description } : {}),
      ...(voice ? { voice } : {}),
      ...(f.default ? { is_default: true as const } : {}),
    };
    if (Object.keys(body).length === 0) this.error('Nothing to change: give --name, --description, --default, a voice flag or --unset.', { exit: ExitCode.usage });
    const persona = await this.client.personas.update(args.personaId, body);
    this.out(`Updated ${persona.id} "${persona.name}"${persona.is_default ? ' (project default)' : ''}`);
    return persona;
  }
}
