import { Args, Flags } from '@oclif/core';
import { Role } from '@svc/contract';
import { BaseCommand } from '../../base-command.js';

export default class MembersAdd extends BaseCommand<typeof MembersAdd> {
  static override description = 'Add a member to the organization (admins)';
  static override examples = ['<%= config.bin %> members add ana@example.com --role member'];
  static override args = { email: Args.string({ description: 'email address', required: true }) };
  static override flags = { role: Flags.string({ description: 'role', options: Role.options, default: 'member' }) };

  async run() {
    const { args } = await this.parse(MembersAdd);
    const member = await this.client.members.add(args.email, this.flags.role as Role);
    this.out(`Added ${member.email} as ${member.role} (${member.userId})`);
    return member;
  }
}
