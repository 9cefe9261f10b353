import { Args, Flags } from '@oclif/core';
import { ConflictError } from '@svc/sdk';
import { BaseCommand } from '../../base-command.js';
import { ExitCode } from '../../lib/exit-codes.js';
import { readText, readYamlOrJson } from '../../lib/inputs.js';

export default class TestsEdit extends BaseCommand<typeof TestsEdit> {
  static override description =
    'Edit a test from its current version: a content change mints the next version; if someone else edited it meanwhile the edit is refused (exit 5)';
  static override examples = [
    '<%= config.bin %> tests edit tst_... --scenario-file refund.txt',
    '<%= config.bin %> tests edit tst_... --behavior "offers a refund" --behavior "confirms the amount"',
    '<%= config.bin %> tests edit tst_... --name "Refund (double charge)"',
  ];
  static override args = { testId: Args.string({ description: 'test id (tst_...)', required: true }) };
  static override flags = {
    name: Flags.string({ description: 'new name (renaming mints no version)' }),
    'scenario-file': Flags.string({ description: 'file holding the new scenario (- for stdin)', exclusive: ['scenario'] }),
    scenario: Flags.string({ description: 'new scenario text' }),
    behavior: Flags.string({ description: 'expected behavior; the list given replaces the current one', multiple: true }),
    persona: Flags.string({ description: 'persona name or prs_ id; the list given replaces the current one', multiple: true, exclusive: ['default-persona'] }),
    'default-persona': Flags.boolean({ description: 'use the project default persona' }),
    'mock-tools-file': Flags.string({ description: 'YAML or JSON list of mock tools replacing the current ones' }),
    'expected-version': Flags.string({ description: 'the tstv_ version the edit starts from (default: the current one, read first)' }),
  };

  async run() {
    const { args } = await this.parse(TestsEdit);
    const f = this.flags;
    const changes = {
      ...(f.name !== undefined ? { name: f.name } : {}),
      ...(f.scenario !== undefined || f['scenario-file'] ? { scenario: f.scenario ?? readText(f['scenario-file']!) } : {}),
      ...(f.behavior ? { expected_behaviors: f.behavior } : {}),
      ...(f.persona ? { personas: f.persona } : f['default-persona'] ? { personas: [] } : {}),
      ...(f['mock-tools-file'] ? { mock_tools: readYamlOrJson(f['mock-tools-file']) as never } : {}),
    };
    if (Object.keys(changes).length === 0) this.error('Nothing to change: give --name, --scenario(-file), --behavior, --persona, --default-persona or --mock-tools-file.', { exit: ExitCode.usage });
    const expectedVersionId = f['expected-version'] ?? (await this.client.tests.get(args.testId)).version_id;
    try {
      const test = await this.client.tests.update(args.testId, { expectedVersionId, ...changes });
      if (test.version_id === expectedVersionId) this.out(`${test.id} "${test.name}" unchanged at version ${test.version} (${test.version_id}): no new version`);
      else this.out(`${test.id} "${test.name}" is now at version ${test.version} (${test.version_id})`);
      return test;
    } catch (err) {
      if (err instanceof ConflictError && err.code === 'version_conflict') {
        this.note(`Conflict: the test changed since ${expectedVersionId} (now ${String(err.details?.current_version_id)}); nothing was written. Re-run the edit to apply it on top.`);
      }
      throw err;
    }
  }
}
