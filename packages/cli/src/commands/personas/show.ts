import { Args } from '@oclif/core';
import { stringify } from 'yaml';
import { BaseCommand } from '../../base-command.js';

export default class PersonasShow extends BaseCommand<typeof PersonasShow> {
  static override description = 'Show a persona and its voice settings';
  static override examples = ['<%= config.bin %> personas show prs_...'];
  static override args = { personaId: Args.string({ description: 'persona id (prs_...)', required: true }) };

  async run() {
    const { args } = await this.parse(PersonasShow);
    const persona = await this.client.personas.get(args.personaId);
    this.out(stringify(persona, { lineWidth: 0 }).trimEnd());
    return persona;
  }
}
