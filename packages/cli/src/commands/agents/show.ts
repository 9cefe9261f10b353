import { Args } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';

export default class AgentsShow extends BaseCommand<typeof AgentsShow> {
  static override description = 'Show one agent, archived or not';
  static override examples = ['<%= config.bin %> agents show agt_...'];
  static override args = { agentId: Args.string({ description: 'agent id', required: true }) };

  async run() {
    const { args } = await this.parse(AgentsShow);
    const agent = await this.client.agents.get(args.agentId, { projectId: this.project });
    for (const [key, value] of Object.entries(agent)) this.out(`${key}: ${value ?? '-'}`);
    return agent;
  }
}
