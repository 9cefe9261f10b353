import { Flags } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';
import { ms } from '../../lib/format.js';
import { renderTable } from '../../lib/table.js';

export default class ConversationsList extends BaseCommand<typeof ConversationsList> {
  static override description = 'List production conversations, newest first';
  static override examples = [
    '<%= config.bin %> conversations list',
    '<%= config.bin %> conversations list --source platform_b --limit 20 --json',
  ];
  static override flags = {
    source: Flags.string({ description: 'only this source', options: ['platform_a', 'platform_b'] }),
    'agent-id': Flags.string({ description: 'only this agent (svc agent id or the platform\'s agent id)' }),
    limit: Flags.integer({ description: 'how many to show', default: 20, min: 1, max: 1000 }),
  };

  async run() {
    const list = this.client.conversations.list({
      ...(this.project ? { project: this.project } : {}),
      ...(this.flags.source ? { source: this.flags.source as 'platform_a' | 'platform_b' } : {}),
      ...(this.flags['agent-id'] ? { agent_id: this.flags['agent-id'] } : {}),
      limit: Math.min(100, this.flags.limit),
    });
    const conversations = [];
    for await (const c of list) {
      conversations.push(c);
      if (conversations.length >= this.flags.limit) break;
    }
    this.out(
      renderTable(
        ['id', 'source', 'external id', 'started', 'duration', 'turns', 'tools', 'p50 latency', 'trace'],
        conversations.map((c) => [c.id, c.source, c.external_id, c.started_at, ms(c.duration_ms), c.turn_count, c.tool_call_count, ms(c.latency.p50_ms), c.trace_id]),
      ),
    );
    return { conversations };
  }
}
