import { Flags } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';
import { renderTable } from '../../lib/table.js';

export default class AgentsList extends BaseCommand<typeof AgentsList> {
  static override description = 'List the project\'s agents, newest first';
  static override examples = ['<%= config.bin %> agents list --project default', '<%= config.bin %> agents list --include-archived --json'];
  static override flags = { 'include-archived': Flags.boolean({ description: 'also list archived agents' }) };

  async run() {
    const agents = await this.client.agents.list({ projectId: this.project, includeArchived: this.flags['include-archived'] }).toArray();
    this.out(
      renderTable(
        ['id', 'name', 'platform', 'platform agent', 'monitoring key', 'archived'],
        agents.map((a) => [a.id, a.name, a.agentPlatform, a.platformAgentId || null, a.monitoringKeyPresent ? a.monitoringApiKeyHint : null, a.archivedAt]),
      ),
    );
    return { agents };
  }
}
