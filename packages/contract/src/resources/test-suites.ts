import { z } from 'zod';
import { Id, PageTokenQuery, Timestamp } from '../common.js';
import { TEST_LIMITS } from './tests.js';

/** Most tests one suite holds. */
export const MAX_SUITE_TESTS = 1000;

/** A named set of tests of one project. */
export const TestSuiteObject = z
  .strictObject({
    id: z.string().describe('`sut_...`'),
    projectId: z.string(),
    name: z.string().describe('Unique in the project'),
    description: z.string().nullable(),
    testIds: z.array(z.string()).describe(`Member tests in the order they were added (at most ${MAX_SUITE_TESTS})`),
    createdAt: Timestamp,
    updatedAt: Timestamp.describe('Last change of the membership'),
  })
  .meta({ id: 'TestSuite' });
export type TestSuiteObject = z.infer<typeof TestSuiteObject>;

/** A mock-tool override in the camelCase family. */
export const MockToolV1 = z
  .strictObject({
    tool: z.string(),
    answer: z.unknown().optional(),
    error: z.string().optional(),
    delayMs: z.number().int().min(0).max(TEST_LIMITS.maxDelayMs).optional(),
  })
  .meta({ id: 'MockToolV1' });

/** The test object of `/api/tests`, in camelCase. */
export const TestObjectV1 = z
  .strictObject({
    id: z.string().describe('`tst_...`'),
    name: z.string(),
    projectId: z.string(),
    version: z.number().int().min(1),
    versionId: z.string().describe('`tstv_...`'),
    scenario: z.string(),
    expectedBehaviors: z.array(z.string()),
    personas: z.array(z.string()),
    mockTools: z.array(MockToolV1),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'TestV1' });
export type TestObjectV1 = z.infer<typeof TestObjectV1>;

const SuiteName = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[^\u0000-\u001f]+$/, 'must not contain control characters');
const TestIds = z.array(Id).max(100);
const ProjectIdQuery = Id.optional().describe('Project id or name; optional with a project-scoped key');

export const GetTestSuitesQuery = PageTokenQuery.extend({ projectId: ProjectIdQuery });
export const GetTestSuitesResponse = z.strictObject({
  testSuites: z.array(TestSuiteObject),
  nextPageToken: z.string().nullable(),
});
export const PostTestSuitesQuery = z.strictObject({ projectId: ProjectIdQuery });
export const PostTestSuitesBody = z.strictObject({
  name: SuiteName,
  description: z.string().trim().max(4000).nullable().optional(),
  testIds: TestIds.optional().describe('Tests of the same project to start with (at most 100 per request)'),
});
export const TestSuiteResponse = z.strictObject({ testSuite: TestSuiteObject });
export const TestSuiteIdParams = z.strictObject({ suiteId: Id });
export const TestSuiteTestParams = z.strictObject({ suiteId: Id, testId: Id });
export const PostTestSuiteTestsBody = z.strictObject({
  testIds: TestIds.min(1).describe('Tests to add; ones already in the suite are left as they are'),
});

export const GetTestsV1Query = PageTokenQuery.extend({
  suiteId: Id.describe('The suite whose tests to list (required)'),
  projectId: ProjectIdQuery,
});
export const GetTestsV1Response = z.strictObject({
  tests: z.array(TestObjectV1),
  nextPageToken: z.string().nullable(),
});
