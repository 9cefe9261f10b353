import { BaseCommand } from '../../base-command.js';
import { renderTable } from '../../lib/table.js';

export default class KeysList extends BaseCommand<typeof KeysList> {
  static override description = 'List API keys (admins see the organization\'s, others their own)';
  static override examples = ['<%= config.bin %> keys list', '<%= config.bin %> keys list --json'];

  async run() {
    const keys = await this.client.keys.list();
    this.out(
      renderTable(
        ['id', 'name', 'scope', 'project', 'looks like', 'last used', 'revoked'],
        keys.map((k) => [k.id, k.name, k.scope, k.project_id, k.looks_like, k.last_used_at, k.revoked_at]),
      ),
    );
    return { keys };
  }
}
