import { Args } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';
import { renderTranscript } from '../../lib/format.js';

export default class ConversationsShow extends BaseCommand<typeof ConversationsShow> {
  static override description = 'Show a production conversation: its transcript with per-turn latencies, and its tool calls';
  static override examples = ['<%= config.bin %> conversations show cnv_...', '<%= config.bin %> conversations show cnv_... --json'];
  static override args = { id: Args.string({ description: 'conversation id (cnv_...)', required: true }) };

  async run() {
    const { args } = await this.parse(ConversationsShow);
    const conversation = await this.client.conversations.get(args.id);
    this.out(renderTranscript(conversation));
    return conversation;
  }
}
