import { Args } from '@oclif/core';
import { stringify } from 'yaml';
import { BaseCommand } from '../../base-command.js';

export default class TestsShowVersion extends BaseCommand<typeof TestsShowVersion> {
  static override description = 'Show one immutable test version (what a run pinned to it uses)';
  static override examples = ['<%= config.bin %> tests show-version tstv_...'];
  static override args = { versionId: Args.string({ description: 'version id (tstv_...)', required: true }) };

  async run() {
    const { args } = await this.parse(TestsShowVersion);
    const v = await this.client.tests.getVersion(args.versionId);
    this.out(`${v.id}: version ${v.version} of ${v.test_id} "${v.name}"${v.is_current ? ' (current)' : ' (superseded by a later edit)'}, minted ${v.created_at}`);
    this.out(stringify({ scenario: v.scenario, expected_behaviors: v.expected_behaviors, personas: v.personas, mock_tools: v.mock_tools }, { lineWidth: 0 }).trimEnd());
    return v;
  }
}
