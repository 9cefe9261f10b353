import { BaseCommand } from '../../base-command.js';
import { renderTable } from '../../lib/table.js';

export default class MembersList extends BaseCommand<typeof MembersList> {
  static override description = 'List the organization\'s members (admins)';
  static override examples = ['<%= config.bin %> members list'];

  async run() {
    const members = await this.client.members.list().toArray();
    this.out(renderTable(['user id', 'email', 'role', 'created'], members.map((m) => [m.userId, m.email, m.role, m.createdAt])));
    return { members };
  }
}
