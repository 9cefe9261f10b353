import type { RunEvent } from '@svc/contract';

/**
 * Live progress of a run on stderr: on a terminal one redrawn bar
 * (`[#####-----] 3/10 calls  2 passed  1 failed`), otherwise a plain line per
 * finished call, so CI logs stay readable.
 */
export class RunProgress {
  private total = 0;
  private done = 0;
  private readonly counts = { passed: 0, failed: 0, error: 0, canceled: 0 };

  constructor(
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly tty = Boolean(process.stderr.isTTY),
  ) {}

  /** Takes one event into account and redraws or writes a line. */
  onEvent(event: RunEvent): void {
    if (event.type === 'run.queued') {
      this.total = event.data.calls;
      if (!this.tty) this.stream.write(`queued ${this.total} calls\n`);
    } else if (event.type === 'call.finished') {
      this.done++;
      const status = event.data.status;
      if (status in this.counts) this.counts[status as keyof typeof this.counts]++;
      if (!this.tty) this.stream.write(`${this.done}/${this.total} calls done: ${event.data.call_id} ${status}${event.data.problem ? ` (${event.data.problem.code})` : ''}  [${this.tally()}]\n`);
    } else if ((event.type === 'run.finished' || event.type === 'run.canceled') && !this.tty) {
      this.stream.write(`run ${event.type === 'run.canceled' ? 'canceled' : event.data.status}\n`);
    }
    if (this.tty) this.draw(event.type === 'run.finished' || event.type === 'run.canceled');
  }

  private tally(): string {
    return `${this.counts.passed} passed, ${this.counts.failed} failed, ${this.counts.error} error${this.counts.canceled ? `, ${this.counts.canceled} canceled` : ''}`;
  }

  private draw(last: boolean): void {
    const width = 30;
    const filled = this.total ? Math.round((this.done / this.total) * width) : 0;
    const bar = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${this.done}/${this.total} calls  ${this.tally()}`;
    this.stream.write(`\r\u001b[2K${bar}${last ? '\n' : ''}`);
  }
}
