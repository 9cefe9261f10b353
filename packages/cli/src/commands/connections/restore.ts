import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';

export default class ConnectionsRestore extends BaseCommand<typeof ConnectionsRestore> {
  static override description = 'Restore an archived connection (its agent must be active), optionally under a new name';
  static override examples = ['<%= config.bin %> connections restore agt_... con_...', '<%= config.bin %> connections restore agt_... con_... --name staging-2'];
  static override args = {
    agentId: Args.string({ description: 'agent id', required: true }),
    connectionId: Args.string({ description: 'connection id', required: true }),
  };
  static override flags = { name: Flags.string({ description: 'restore under this name' }) };

  async run() {
    const { args } = await this.parse(ConnectionsRestore);
    const connection = await this.client.connections.restore(args.agentId, args.connectionId, {
      projectId: this.project,
      ...(this.flags.name ? { name: this.flags.name } : {}),
    });
    this.out(`Restored ${connection.id} as ${connection.name}`);
    return connection;
  }
}
