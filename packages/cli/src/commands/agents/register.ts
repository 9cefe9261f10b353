import { Flags } from '@oclif/core';
import { AgentPlatform, Modality } from '@svc/contract';
import { BaseCommand } from '../../base-command.js';

export default class AgentsRegister extends BaseCommand<typeof AgentsRegister> {
  static override description = 'Register an agent in the project';
  static override examples = [
    '<%= config.bin %> agents register --name support --platform custom',
    '<%= config.bin %> agents register --name sales --platform platform_a --platform-agent-id pa_123 --project default',
  ];
  static override flags = {
    name: Flags.string({ description: 'agent name (unique among the project\'s active agents)', required: true }),
    platform: Flags.string({ description: 'agent platform', options: AgentPlatform.options, required: true }),
    'platform-agent-id': Flags.string({ description: 'the agent\'s id on its platform (required for platform_a)' }),
    modality: Flags.string({ description: 'platform_a modality', options: Modality.options }),
  };

  async run() {
    const agent = await this.client.agents.register(
      {
        name: this.flags.name,
        agentPlatform: this.flags.platform as AgentPlatform,
        ...(this.flags['platform-agent-id'] ? { platformAgentId: this.flags['platform-agent-id'] } : {}),
        ...(this.flags.modality ? { platformAModality: this.flags.modality as Modality } : {}),
      },
      { projectId: this.project },
    );
    this.out(`Registered ${agent.id} (${agent.name}, ${agent.agentPlatform})`);
    return agent;
  }
}
