import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';

export default class AgentsRestore extends BaseCommand<typeof AgentsRestore> {
  static override description = 'Restore an archived agent, optionally under a new name';
  static override examples = ['<%= config.bin %> agents restore agt_...', '<%= config.bin %> agents restore agt_... --name support-v2'];
  static override args = { agentId: Args.string({ description: 'agent id', required: true }) };
  static override flags = { name: Flags.string({ description: 'restore under this name (when an active agent holds the old one)' }) };

  async run() {
    const { args } = await this.parse(AgentsRestore);
    const agent = await this.client.agents.restore(args.agentId, { projectId: this.project, ...(this.flags.name ? { name: this.flags.name } : {}) });
    this.out(`Restored ${agent.id} as ${agent.name}`);
    return agent;
  }
}
