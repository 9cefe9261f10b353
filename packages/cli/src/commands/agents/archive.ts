import { Args } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';

export default class AgentsArchive extends BaseCommand<typeof AgentsArchive> {
  static override description = 'Archive an agent: it leaves lists and frees its name until restored';
  static override examples = ['<%= config.bin %> agents archive agt_...'];
  static override args = { agentId: Args.string({ description: 'agent id', required: true }) };

  async run() {
    const { args } = await this.parse(AgentsArchive);
    const agent = await this.client.agents.archive(args.agentId, { projectId: this.project });
    this.out(`Archived ${agent.id} (${agent.name}) at ${agent.archivedAt}`);
    return agent;
  }
}
