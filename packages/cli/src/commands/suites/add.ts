import { Args } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';

export default class SuitesAdd extends BaseCommand<typeof SuitesAdd> {
  static override description = 'Add tests to a suite (all or nothing; tests already in it stay)';
  static override examples = ['<%= config.bin %> suites add sut_... tst_... tst_...'];
  static override strict = false;
  static override args = {
    suiteId: Args.string({ description: 'suite id (sut_...)', required: true }),
    testId: Args.string({ description: 'test ids (tst_...), one or more', required: true }),
  };

  async run() {
    const { args, argv } = await this.parse(SuitesAdd);
    const testIds = (argv as string[]).slice(1);
    const suite = await this.client.testSuites.addTests(args.suiteId, testIds);
    this.out(`${suite.id} "${suite.name}" now has ${suite.testIds.length} test(s)`);
    return suite;
  }
}
