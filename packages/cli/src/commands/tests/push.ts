import { writeFileSync } from 'node:fs';
import { Args } from '@oclif/core';
import { ConflictError, SvcError } from '@svc/sdk';
import { BaseCommand } from '../../base-command.js';
import { ExitCode, exitCodeForStatus } from '../../lib/exit-codes.js';
import { renderTable } from '../../lib/table.js';
import { listTestFiles, loadTestFile, recordVersion } from '../../lib/test-file.js';

/** `up to date`: the server already matched the file's content (a rename alone mints no version either). */
type PushStatus = 'created' | 'new version' | 'up to date' | 'conflict' | 'invalid' | 'failed';

interface PushResult {
  file: string;
  status: PushStatus;
  id?: string;
  version?: number;
  version_id?: string;
  message?: string;
  /** Exit code of a failure. */
  exit?: number;
}

export default class TestsPush extends BaseCommand<typeof TestsPush> {
  static override description = [
    'Send every YAML test file of DIR to the server. A file without an id creates its test; a file with one edits it from the version_id it records.',
    'Unchanged content mints nothing. A test edited elsewhere since the file\'s version is reported as a conflict and left untouched on both sides (exit 5); pull, reapply, push again.',
  ].join(' ');
  static override examples = ['<%= config.bin %> tests push tests/', '<%= config.bin %> tests push tests/ --project staging --json'];
  static override args = { dir: Args.string({ description: 'directory of test files', required: true }) };

  async run() {
    const { args } = await this.parse(TestsPush);
    const results: PushResult[] = [];
    for (const file of listTestFiles(args.dir)) results.push(await this.pushFile(file));
    this.out(renderTable(['file', 'status', 'test', 'version', 'detail'], results.map((r) => [r.file, r.status, r.id, r.version, r.message])));
    const conflicts = results.filter((r) => r.status === 'conflict');
    for (const c of conflicts) this.note(`Conflict: ${c.file}: ${c.message}`);
    // Every file is reported (and --json prints the result) before exiting non-zero.
    process.exitCode = this.exitCode(results);
    return { files: results };
  }

  private async pushFile(file: string): Promise<PushResult> {
    const loaded = loadTestFile(file);
    if (!loaded.ok) return { file, status: 'invalid', message: loaded.reason };
    const { doc, test: t } = loaded;
    const content = { name: t.name, scenario: t.scenario, expected_behaviors: t.expected_behaviors, personas: t.personas ?? [], mock_tools: t.mock_tools ?? [] };
    try {
      if (!t.id) {
        const created = await this.client.tests.create({ ...content, ...(this.project ? { project: this.project } : {}) });
        writeFileSync(file, recordVersion(doc, created));
        return { file, status: 'created', id: created.id, version: created.version, version_id: created.version_id };
      }
      if (!t.version_id) return { file, status: 'invalid', id: t.id, message: 'the file has an id but no version_id; pull it again' };
      const updated = await this.client.tests.update(t.id, { expectedVersionId: t.version_id, ...content });
      const minted = updated.version_id !== t.version_id;
      if (minted || t.version !== updated.version) writeFileSync(file, recordVersion(doc, updated));
      return { file, status: minted ? 'new version' : 'up to date', id: updated.id, version: updated.version, version_id: updated.version_id };
    } catch (err) {
      if (err instanceof ConflictError && err.code === 'version_conflict') {
        const current = String(err.details?.current_version_id);
        return { file, status: 'conflict', id: t.id, message: `the file is at ${t.version_id} but the test is now at ${current}` };
      }
      if (err instanceof SvcError) return { file, status: 'failed', id: t.id, message: `${err.code}: ${err.message}`, exit: exitCodeForStatus(err.status) };
      throw err;
    }
  }

  /** Conflicts win (5), then invalid files (6), then the first other failure's code. */
  private exitCode(results: PushResult[]): number {
    if (results.some((r) => r.status === 'conflict')) return ExitCode.conflict;
    if (results.some((r) => r.status === 'invalid')) return ExitCode.invalid;
    return results.find((r) => r.status === 'failed')?.exit ?? ExitCode.ok;
  }
}
