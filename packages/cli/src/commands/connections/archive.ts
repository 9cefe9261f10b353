import { Args } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';

export default class ConnectionsArchive extends BaseCommand<typeof ConnectionsArchive> {
  static override description = 'Archive a connection of an agent';
  static override examples = ['<%= config.bin %> connections archive agt_... con_...'];
  static override args = {
    agentId: Args.string({ description: 'agent id', required: true }),
    connectionId: Args.string({ description: 'connection id', required: true }),
  };

  async run() {
    const { args } = await this.parse(ConnectionsArchive);
    const connection = await this.client.connections.archive(args.agentId, args.connectionId, { projectId: this.project });
    this.out(`Archived ${connection.id} (${connection.name}) at ${connection.archivedAt}`);
    return connection;
  }
}
