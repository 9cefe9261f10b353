import { Args } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';

export default class SuitesRemove extends BaseCommand<typeof SuitesRemove> {
  static override description = 'Remove a test from a suite (the test itself is kept)';
  static override examples = ['<%= config.bin %> suites remove sut_... tst_...'];
  static override args = {
    suiteId: Args.string({ description: 'suite id (sut_...)', required: true }),
    testId: Args.string({ description: 'test id (tst_...)', required: true }),
  };

  async run() {
    const { args } = await this.parse(SuitesRemove);
    const suite = await this.client.testSuites.removeTest(args.suiteId, args.testId);
    this.out(`${suite.id} "${suite.name}" now has ${suite.testIds.length} test(s)`);
    return suite;
  }
}
