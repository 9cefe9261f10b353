import { Flags } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';

export default class SuitesCreate extends BaseCommand<typeof SuitesCreate> {
  static override description = 'Create a test suite, optionally with tests';
  static override examples = ['<%= config.bin %> suites create --name smoke --test tst_... --test tst_...'];
  static override flags = {
    name: Flags.string({ description: 'suite name (unique in the project)', required: true }),
    description: Flags.string({ description: 'what the suite is for' }),
    test: Flags.string({ description: 'a test id to include (repeat)', multiple: true }),
  };

  async run() {
    const f = this.flags;
    const suite = await this.client.testSuites.create(
      { name: f.name, ...(f.description ? { description: f.description } : {}), ...(f.test ? { testIds: f.test } : {}) },
      this.project ? { projectId: this.project } : {},
    );
    this.out(`Created ${suite.id} "${suite.name}" with ${suite.testIds.length} test(s)`);
    return suite;
  }
}
