import { Args } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';
import { ms, renderSpanTree } from '../../lib/format.js';

export default class TracesShow extends BaseCommand<typeof TracesShow> {
  static override description = 'Show a trace as an indented span tree with durations';
  static override examples = ['<%= config.bin %> traces show 6ec8e41cb506940d0781d3b891617847', '<%= config.bin %> traces show TRACE_ID --json'];
  static override args = { traceId: Args.string({ description: 'trace id (32 hex characters)', required: true }) };

  async run() {
    const { args } = await this.parse(TracesShow);
    const trace = await this.client.traces.get(args.traceId);
    const start = trace.spans.reduce((min, s) => (BigInt(s.start_time_unix_nano) < min ? BigInt(s.start_time_unix_nano) : min), BigInt(trace.spans[0]!.start_time_unix_nano));
    this.out(`trace ${trace.trace_id}  ${trace.span_count} spans  ${ms(trace.duration_ms)}${trace.conversation_id ? `  conversation ${trace.conversation_id}` : ''}\n`);
    this.out(renderSpanTree(trace.spans, start));
    return trace;
  }
}
