import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { ExpectedBehaviors, MockTools, PersonaRefs, Scenario, type TestObject, TestName } from '@svc/contract';
import { Document, isMap, parseDocument } from 'yaml';
import { z } from 'zod';

/**
 * One test as a YAML file, so tests can live in a git repository and CI can
 * push them. `id` and `version_id` record what the file was pulled (or last
 * pushed) at: push sends `version_id` as `expected_version_id`, so an edit
 * made elsewhere since is reported as a conflict instead of being overwritten.
 */
export const TestFile = z.strictObject({
  id: z.string().startsWith('tst_').optional(),
  version_id: z.string().startsWith('tstv_').optional(),
  version: z.number().int().min(1).optional(),
  name: TestName,
  scenario: Scenario,
  expected_behaviors: ExpectedBehaviors,
  personas: PersonaRefs.optional(),
  mock_tools: MockTools.optional(),
});
export type TestFile = z.infer<typeof TestFile>;

const HEADER = ' svc test. Edit freely, then `svc tests push DIR`.\n id and version_id are what this file was pulled at; leave them to svc.';
const FIELD_ORDER = ['id', 'version_id', 'version', 'name', 'scenario', 'expected_behaviors', 'personas', 'mock_tools'] as const;
const STRINGIFY = { lineWidth: 0 } as const;

/** The YAML files of a directory (non-recursive), sorted. */
export function listTestFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => /\.ya?ml$/i.test(f))
    .sort()
    .map((f) => path.join(dir, f));
}

/** A file read for push: its parsed document (comments kept) and its validated content, or why it is unusable. */
export type LoadedTestFile = { ok: true; doc: Document; test: TestFile } | { ok: false; reason: string };

/** Reads and validates a test file. */
export function loadTestFile(file: string): LoadedTestFile {
  const doc = parseDocument(readFileSync(file, 'utf8'));
  if (doc.errors.length > 0) return { ok: false, reason: `not valid YAML: ${doc.errors[0]!.message}` };
  const parsed = TestFile.safeParse(doc.toJS());
  if (!parsed.success) {
    return { ok: false, reason: parsed.error.issues.map((i) => `${i.path.join('.') || 'file'}: ${i.message}`).join('; ') };
  }
  return { ok: true, doc, test: parsed.data };
}

/** The test id recorded in a file, if it parses at all (used by pull to find a test's existing file). */
export function recordedTestId(file: string): string | undefined {
  try {
    const value = parseDocument(readFileSync(file, 'utf8')).get('id');
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The file contents of a test at its current version; an existing document keeps its comments. */
export function renderTestFile(test: TestObject, existing?: Document): string {
  const values: Record<(typeof FIELD_ORDER)[number], unknown> = {
    id: test.id,
    version_id: test.version_id,
    version: test.version,
    name: test.name,
    scenario: test.scenario,
    expected_behaviors: test.expected_behaviors,
    personas: test.personas,
    mock_tools: test.mock_tools,
  };
  if (existing && isMap(existing.contents)) {
    for (const key of FIELD_ORDER) existing.set(key, existing.createNode(values[key]));
    return existing.toString(STRINGIFY);
  }
  const doc = new Document(values);
  doc.commentBefore = HEADER;
  return doc.toString(STRINGIFY);
}

/** Records the version a push produced, keeping the rest of the file (comments included) as the user wrote it. */
export function recordVersion(doc: Document, test: TestObject): string {
  if (doc.has('id')) {
    doc.set('version_id', test.version_id);
    doc.set('version', test.version);
  } else {
    // A new test: put the ids first, where pull puts them.
    for (const key of ['version_id', 'version']) doc.delete(key);
    const map = doc.contents as unknown as { items: unknown[] };
    map.items.unshift(doc.createPair('id', test.id), doc.createPair('version_id', test.version_id), doc.createPair('version', test.version));
  }
  return doc.toString(STRINGIFY);
}

/** A file name for a test: its name in lower-case words joined by dashes. */
export function slugFor(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return slug || 'test';
}
