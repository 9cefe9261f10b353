import { writeFileSync } from 'node:fs';
import { Flags } from '@oclif/core';
import type { RunObject } from '@svc/contract';
import { BaseCommand } from '../base-command.js';
import { ExitCode } from '../lib/exit-codes.js';
import { junitReport } from '../lib/junit.js';
import { RunProgress } from '../lib/progress.js';
import { renderRun } from '../lib/run-report.js';

export default class Run extends BaseCommand<typeof Run> {
  static override description = [
    'Run tests against an agent: resolves the tests (or a suite) to their current version ids and starts a run.',
    'With --wait, follows it live (progress on stderr), prints the result table and exits 0 only when the run passed (10 when it finished and did not pass).',
  ].join(' ');
  static override examples = [
    '<%= config.bin %> run --suite smoke --agent agt_... --wait',
    '<%= config.bin %> run --test "Refund" --test "Opening hours" --agent agt_... --repeat 3 --wait --junit report.xml',
    '<%= config.bin %> run --suite smoke --agent agt_... --wait --json > result.json',
  ];
  static override flags = {
    suite: Flags.string({ description: 'suite name or sut_ id whose tests to run', exclusive: ['test'] }),
    test: Flags.string({ description: 'test name or tst_ id (repeat for more)', multiple: true }),
    agent: Flags.string({ description: 'agent id (agt_...)', required: true }),
    connection: Flags.string({ description: 'connection id (con_...); default: the agent\'s newest runnable connection' }),
    repeat: Flags.integer({ description: 'calls per test version and persona', min: 1, max: 20 }),
    concurrency: Flags.integer({ description: 'most calls of this run at once', min: 1, max: 50 }),
    wait: Flags.boolean({ description: 'follow the run until it finishes; the exit code tells whether it passed' }),
    junit: Flags.string({ description: 'write a JUnit XML report to this file (implies --wait)' }),
    'idempotency-key': Flags.string({ description: 'makes a retried command return the same run (e.g. the CI job id)' }),
  };

  async run(): Promise<RunObject> {
    const f = this.flags;
    if (!f.suite && !f.test?.length) this.error('name the tests to run: --suite NAME or --test NAME (repeatable)', { exit: ExitCode.usage });
    const versions = f.suite ? await this.suiteVersions(f.suite) : await this.testVersions(f.test!);
    if (versions.length === 0) this.error(`the suite "${f.suite}" has no tests`, { exit: ExitCode.invalid });
    const run = await this.client.runs.create(
      {
        test_versions: versions,
        agent_id: f.agent,
        ...(f.connection ? { connection_id: f.connection } : {}),
        ...(f.repeat ? { repeat: f.repeat } : {}),
        ...(f.concurrency ? { concurrency: f.concurrency } : {}),
        ...(this.project ? { project: this.project } : {}),
      },
      f['idempotency-key'] ? { idempotencyKey: f['idempotency-key'] } : {},
    );
    this.note(`Run ${run.id}: ${run.summary.calls.total} calls of ${versions.length} test version(s) against ${run.agent_id}`);
    if (!f.wait && !f.junit) {
      this.out(run.id);
      return run;
    }
    const progress = new RunProgress();
    const finished = await this.client.runs.wait(run.id, { onEvent: (e) => progress.onEvent(e) });
    if (f.junit) {
      writeFileSync(f.junit, junitReport(finished));
      this.note(`JUnit report written to ${f.junit}`);
    }
    this.out(renderRun(finished));
    // Not this.exit(): under --json oclif would turn it into exit 1 and drop the result.
    if (finished.status !== 'passed') process.exitCode = ExitCode.runFailed;
    return finished;
  }

  private async suiteVersions(ref: string): Promise<string[]> {
    let suiteId: string | undefined = ref.startsWith('sut_') ? ref : undefined;
    if (!suiteId) {
      for await (const s of this.client.testSuites.list({ ...(this.project ? { projectId: this.project } : {}), pageSize: 100 })) {
        if (s.name === ref) {
          suiteId = s.id;
          break;
        }
      }
    }
    if (!suiteId) this.error(`no suite named "${ref}" in the project`, { exit: ExitCode.notFound });
    const tests = await this.client.testSuites.listTests(suiteId, { pageSize: 100 }).toArray();
    return tests.map((t) => t.versionId);
  }

  private async testVersions(refs: string[]): Promise<string[]> {
    const wanted = new Map(refs.map((r) => [r, undefined as string | undefined]));
    for await (const t of this.client.tests.list({ ...(this.project ? { project: this.project } : {}), limit: 100 })) {
      for (const key of [t.id, t.name]) if (wanted.has(key) && !wanted.get(key)) wanted.set(key, t.version_id);
      if ([...wanted.values()].every(Boolean)) break;
    }
    const missing = [...wanted].filter(([, v]) => !v).map(([k]) => k);
    if (missing.length) this.error(`no test named ${missing.map((m) => `"${m}"`).join(', ')} in the project`, { exit: ExitCode.notFound });
    return refs.map((r) => wanted.get(r)!);
  }
}
