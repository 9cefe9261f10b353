import { Args } from '@oclif/core';
import { Role } from '@svc/contract';
import { BaseCommand } from '../../base-command.js';

export default class MembersSetRole extends BaseCommand<typeof MembersSetRole> {
  static override description = 'Change a member\'s role; their keys act with the new role on the next request (admins)';
  static override examples = ['<%= config.bin %> members set-role usr_... viewer'];
  static override args = {
    userId: Args.string({ description: 'user id', required: true }),
    role: Args.string({ description: 'new role', options: Role.options, required: true }),
  };

  async run() {
    const { args } = await this.parse(MembersSetRole);
    const member = await this.client.members.setRole(args.userId, args.role as Role);
    this.out(`${member.email} is now ${member.role}`);
    return member;
  }
}
