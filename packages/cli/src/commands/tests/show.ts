import { Args } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';
import { renderTestFile } from '../../lib/test-file.js';

export default class TestsShow extends BaseCommand<typeof TestsShow> {
  static override description = 'Show a test at its current version, in the YAML form of pull and push';
  static override examples = ['<%= config.bin %> tests show tst_...'];
  static override args = { testId: Args.string({ description: 'test id (tst_...)', required: true }) };

  async run() {
    const { args } = await this.parse(TestsShow);
    const test = await this.client.tests.get(args.testId);
    this.out(renderTestFile(test).trimEnd());
    return test;
  }
}
