import { z } from 'zod';
import { CursorQuery, Id, Timestamp, cursorPage, prefixedId } from '../common.js';

/** Limits of one test's content; refusals are 422 `validation_failed`. */
export const TEST_LIMITS = {
  scenarioChars: 20_000,
  behaviors: 100,
  behaviorChars: 2_000,
  personas: 20,
  mockTools: 100,
  maxDelayMs: 600_000,
} as const;

export const TestName = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[^\u0000-\u001f]+$/, 'must not contain control characters');

export const Scenario = z.string().trim().min(1).max(TEST_LIMITS.scenarioChars).describe('What the simulated caller wants and how the conversation goes, in natural language');

const behavior = z
  .string({
    error: (issue) =>
      issue.input !== null && typeof issue.input === 'object'
        ? 'expected behaviors are plain strings; the object form {behavior, priority} is not accepted'
        : 'expected a string',
  })
  .trim()
  .min(1)
  .max(TEST_LIMITS.behaviorChars);

export const ExpectedBehaviors = z
  .array(behavior)
  .min(1)
  .max(TEST_LIMITS.behaviors)
  .describe('What the agent must do, each a plain string (the object form `{behavior, priority}` is refused). Replaced as a whole on edit.');

export const PersonaRefs = z
  .array(z.string().trim().min(1).max(200))
  .max(TEST_LIMITS.personas)
  .describe('Persona names or `prs_` ids of the project; each calls in separately per run. `[]` means the project default persona.');

const exactlyOneOutcome = (m: { answer?: unknown; error?: unknown }) => ('answer' in m) !== ('error' in m);
const outcomeMessage = { message: 'a mock tool has exactly one of answer or error' };
const delay = z.number().int().min(0).max(TEST_LIMITS.maxDelayMs);

/** A mock-tool override: what a tool answers (or the error it fails with) during a run of this test. */
export const MockTool = z
  .strictObject({
    tool: z.string().trim().min(1).max(200).describe('Name of the agent\'s tool'),
    answer: z.unknown().optional().describe('The tool\'s result, any JSON value'),
    error: z.string().min(1).max(2_000).optional().describe('The tool fails with this message'),
    delay_ms: delay.optional().describe('Wait before answering'),
  })
  .refine(exactlyOneOutcome, outcomeMessage)
  .meta({ id: 'MockTool', description: 'Exactly one of `answer` and `error`. Versioned with the test; wins over project-level mock tools.' });
export type MockTool = z.infer<typeof MockTool>;

const uniqueTools = <T extends { tool: string }>(list: T[], ctx: z.RefinementCtx) => {
  const seen = new Set<string>();
  list.forEach((m, i) => {
    if (seen.has(m.tool)) ctx.addIssue({ code: 'custom', path: [i, 'tool'], message: `tool "${m.tool}" is overridden twice` });
    seen.add(m.tool);
  });
};

export const MockTools = z.array(MockTool).max(TEST_LIMITS.mockTools).superRefine(uniqueTools);

/** A test at its current version. */
export const TestObject = z
  .strictObject({
    id: z.string().describe('`tst_...`'),
    name: z.string().describe('Unique in the project; not versioned'),
    project_id: z.string(),
    version: z.number().int().min(1).describe('Current version number, from 1'),
    version_id: z.string().describe('`tstv_...`: immutable id of the current version; runs pin it'),
    scenario: z.string(),
    expected_behaviors: z.array(z.string()),
    personas: z.array(z.string()).describe('As written; `[]` is the project default persona at the time the version was minted'),
    mock_tools: z.array(MockTool),
    created_at: Timestamp,
    updated_at: Timestamp.describe('Last rename or new version'),
  })
  .meta({ id: 'Test' });
export type TestObject = z.infer<typeof TestObject>;

/** One immutable version of a test. */
export const TestVersionObject = z
  .strictObject({
    id: z.string().describe('`tstv_...`'),
    test_id: z.string(),
    name: z.string().describe('The test\'s current name (names are not versioned)'),
    version: z.number().int().min(1),
    is_current: z.boolean().describe('False once a later edit has superseded this version'),
    scenario: z.string(),
    expected_behaviors: z.array(z.string()),
    personas: z.array(z.string()),
    mock_tools: z.array(MockTool),
    created_at: Timestamp.describe('When the version was minted'),
  })
  .meta({ id: 'TestVersion' });
export type TestVersionObject = z.infer<typeof TestVersionObject>;

export const PostTestsBody = z.strictObject({
  name: TestName,
  scenario: Scenario,
  expected_behaviors: ExpectedBehaviors,
  personas: PersonaRefs.optional().describe('Omit (or send `[]`) for the project default persona'),
  mock_tools: MockTools.optional(),
  project: Id.optional().describe('Project id or name; defaults to the key\'s project'),
});
export type PostTestsBody = z.infer<typeof PostTestsBody>;

export const PatchTestBody = z.strictObject({
  expected_version_id: prefixedId('tstv_').describe('The version the edit starts from; a stale one is 409 `version_conflict`'),
  name: TestName.optional(),
  scenario: Scenario.optional(),
  expected_behaviors: ExpectedBehaviors.optional(),
  personas: PersonaRefs.optional().describe('`[]` means the project default; omitted means unchanged'),
  mock_tools: MockTools.optional().describe('Replaced as a whole; omitted means unchanged'),
  project: Id.optional().describe('Project id or name the test is looked up in (tests do not move between projects)'),
});
export type PatchTestBody = z.infer<typeof PatchTestBody>;

export const GetTestsQuery = CursorQuery.extend({
  project: Id.optional().describe('Project id or name; defaults to the key\'s project'),
});
export const GetTestsResponse = cursorPage(TestObject);
export const GetTestVersionsResponse = cursorPage(TestVersionObject);
export const TestIdParams = z.strictObject({ testId: Id });
export const TestVersionIdParams = z.strictObject({ versionId: Id });

/** `details` of a 409 `version_conflict`. */
export const VersionConflictDetails = z.strictObject({
  expected_version_id: z.string().describe('The version the edit started from'),
  current_version_id: z.string().describe('The test\'s current version; re-read it and edit again'),
});
