import { BaseCommand } from '../../base-command.js';
import { renderTable } from '../../lib/table.js';

export default class PersonasList extends BaseCommand<typeof PersonasList> {
  static override description = 'List the project\'s personas, newest first (the default is marked)';
  static override examples = ['<%= config.bin %> personas list'];

  async run() {
    const personas = await this.client.personas.list({ ...(this.project ? { project: this.project } : {}), limit: 100 }).toArray();
    this.out(
      renderTable(
        ['id', 'name', 'default', 'tts', 'language', 'description'],
        personas.map((p) => [p.id, p.name, p.is_default ? 'yes' : '', [p.voice.tts_provider, p.voice.tts_model].filter(Boolean).join('/') || null, p.voice.language, p.description]),
      ),
    );
    return { personas };
  }
}
