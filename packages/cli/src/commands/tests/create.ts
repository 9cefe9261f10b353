import { Flags } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';
import { readText, readYamlOrJson } from '../../lib/inputs.js';

export default class TestsCreate extends BaseCommand<typeof TestsCreate> {
  static override description = 'Create a test at version 1';
  static override examples = [
    '<%= config.bin %> tests create --name "Refund" --scenario-file refund.txt --behavior "offers a refund" --behavior "stays polite"',
    '<%= config.bin %> tests create --name "Refund" --scenario "A caller was charged twice." --behavior "offers a refund" --persona "Impatient Irene"',
  ];
  static override flags = {
    name: Flags.string({ description: 'test name (unique in the project)', required: true }),
    'scenario-file': Flags.string({ description: 'file holding the scenario text (- for stdin)', exactlyOne: ['scenario-file', 'scenario'] }),
    scenario: Flags.string({ description: 'scenario text' }),
    behavior: Flags.string({ description: 'an expected behavior (repeat for more)', multiple: true, required: true }),
    persona: Flags.string({ description: 'persona name or prs_ id (repeat; none means the project default)', multiple: true }),
    'mock-tools-file': Flags.string({ description: 'YAML or JSON list of {tool, answer | error, delay_ms}' }),
  };

  async run() {
    const f = this.flags;
    const test = await this.client.tests.create({
      name: f.name,
      scenario: f.scenario ?? readText(f['scenario-file']!),
      expected_behaviors: f.behavior,
      ...(f.persona ? { personas: f.persona } : {}),
      ...(f['mock-tools-file'] ? { mock_tools: readYamlOrJson(f['mock-tools-file']) as never } : {}),
      ...(this.project ? { project: this.project } : {}),
    });
    this.out(`Created ${test.id} "${test.name}" at version ${test.version} (${test.version_id})`);
    return test;
  }
}
