import { Args } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';

export default class KeysRevoke extends BaseCommand<typeof KeysRevoke> {
  static override description = 'Revoke an API key; it stops working on the next request';
  static override examples = ['<%= config.bin %> keys revoke key_...'];
  static override args = { id: Args.string({ description: 'key id', required: true }) };

  async run() {
    const { args } = await this.parse(KeysRevoke);
    const key = await this.client.keys.revoke(args.id);
    this.out(`Revoked ${key.id} at ${key.revoked_at}`);
    return key;
  }
}
