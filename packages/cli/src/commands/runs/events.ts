import { Args, Flags } from '@oclif/core';
import type { RunEvent } from '@svc/contract';
import { BaseCommand } from '../../base-command.js';
import { renderEvent } from '../../lib/run-report.js';

export default class RunsEvents extends BaseCommand<typeof RunsEvents> {
  static override description = 'Print a run\'s events in order; --follow keeps reading until the run is done';
  static override examples = ['<%= config.bin %> runs events run_...', '<%= config.bin %> runs events run_... --follow', '<%= config.bin %> runs events run_... --after 40 --json'];
  static override args = { runId: Args.string({ description: 'run id (run_...)', required: true }) };
  static override flags = {
    after: Flags.integer({ description: 'start after this event seq', min: 0, default: 0 }),
    follow: Flags.boolean({ description: 'long-poll for new events until the run is done' }),
  };

  async run() {
    const { args } = await this.parse(RunsEvents);
    const events: RunEvent[] = [];
    if (this.flags.follow) {
      for await (const e of this.client.runs.events(args.runId, { after: this.flags.after })) {
        events.push(e);
        this.out(renderEvent(e));
      }
    } else {
      let after = this.flags.after;
      for (;;) {
        const page = await this.client.runs.eventsPage(args.runId, { after, limit: 500 });
        for (const e of page.events) this.out(renderEvent(e));
        events.push(...page.events);
        after = page.next;
        if (page.caughtUp) break;
      }
    }
    return { events };
  }
}
