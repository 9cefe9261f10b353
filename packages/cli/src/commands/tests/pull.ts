import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Args } from '@oclif/core';
import { parseDocument } from 'yaml';
import { BaseCommand } from '../../base-command.js';
import { renderTable } from '../../lib/table.js';
import { listTestFiles, recordedTestId, renderTestFile, slugFor } from '../../lib/test-file.js';

type PullStatus = 'new' | 'updated' | 'unchanged';

export default class TestsPull extends BaseCommand<typeof TestsPull> {
  static override description =
    'Write every test of the project to DIR as one YAML file each, at its current version. A test\'s existing file (found by its id) is updated in place, keeping comments.';
  static override examples = ['<%= config.bin %> tests pull tests/', '<%= config.bin %> tests pull tests/ --project staging'];
  static override args = { dir: Args.string({ description: 'directory of test files (created if missing)', required: true }) };

  async run() {
    const { args } = await this.parse(TestsPull);
    mkdirSync(args.dir, { recursive: true });
    const fileById = new Map<string, string>();
    for (const file of listTestFiles(args.dir)) {
      const id = recordedTestId(file);
      if (id) fileById.set(id, file);
    }
    const taken = new Set(listTestFiles(args.dir).map((f) => path.basename(f).toLowerCase()));
    const files: Array<{ file: string; id: string; version: number; version_id: string; status: PullStatus }> = [];
    for await (const test of this.client.tests.list({ ...(this.project ? { project: this.project } : {}), limit: 100 })) {
      let file = fileById.get(test.id);
      let status: PullStatus = 'updated';
      let text: string;
      if (file) {
        const before = readFileSync(file, 'utf8');
        text = renderTestFile(test, parseDocument(before));
        if (text === before) status = 'unchanged';
      } else {
        file = path.join(args.dir, this.freeName(slugFor(test.name), taken));
        text = renderTestFile(test);
        status = 'new';
      }
      if (status !== 'unchanged') writeFileSync(file, text);
      files.push({ file, id: test.id, version: test.version, version_id: test.version_id, status });
    }
    this.out(renderTable(['file', 'test', 'version', 'status'], files.map((f) => [f.file, f.id, f.version, f.status])));
    this.note(`Pulled ${files.length} test(s) into ${args.dir}.`);
    return { files };
  }

  /** `slug.yaml`, or `slug-2.yaml` and so on when another test's file has that name. */
  private freeName(slug: string, taken: Set<string>): string {
    for (let n = 1; ; n++) {
      const name = n === 1 ? `${slug}.yaml` : `${slug}-${n}.yaml`;
      if (!taken.has(name)) {
        taken.add(name);
        return name;
      }
    }
  }
}
