import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';
import { renderTable } from '../../lib/table.js';

export default class ConnectionsList extends BaseCommand<typeof ConnectionsList> {
  static override description = 'List an agent\'s connections, newest first';
  static override examples = ['<%= config.bin %> connections list agt_...'];
  static override args = { agentId: Args.string({ description: 'agent id', required: true }) };
  static override flags = { 'include-archived': Flags.boolean({ description: 'also list archived connections' }) };

  async run() {
    const { args } = await this.parse(ConnectionsList);
    const connections = await this.client.connections.list(args.agentId, { projectId: this.project, includeArchived: this.flags['include-archived'] }).toArray();
    this.out(
      renderTable(
        ['id', 'name', 'type', 'access', 'environment', 'credentials', 'archived'],
        connections.map((c) => [c.id, c.name, c.connectionType, c.accessVariant, c.environment, c.credentialPresent ? c.credentialsHint : null, c.archivedAt]),
      ),
    );
    return { connections };
  }
}
