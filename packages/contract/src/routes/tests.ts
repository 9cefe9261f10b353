import { defineOperation } from '../operation.js';
import {
  GetTestVersionsResponse,
  GetTestsQuery,
  GetTestsResponse,
  PatchTestBody,
  PostTestsBody,
  TestIdParams,
  TestObject,
  TestVersionIdParams,
  TestVersionObject,
} from '../resources/tests.js';
import { CursorQuery } from '../common.js';

export const createTest = defineOperation({
  operationId: 'createTest',
  method: 'post',
  path: '/api/tests',
  tag: 'Tests',
  summary: 'Create a test at version 1',
  description:
    'Names are unique in the project (409 `name_taken`). `personas` entries are names or `prs_` ids of the project (unknown ones: 422 `unknown_persona`); omitted or `[]` is the project default persona. The version keeps the persona ids it resolved, so later renames never change what it means.',
  auth: 'key',
  body: PostTestsBody,
  status: 201,
  response: TestObject,
  errors: { 400: ['project_required'], 404: ['not_found'], 409: ['name_taken'], 422: ['unknown_persona'] },
});

export const updateTest = defineOperation({
  operationId: 'updateTest',
  method: 'patch',
  path: '/api/tests/{testId}',
  tag: 'Tests',
  summary: 'Edit a test: a content change mints the next version',
  description: [
    'Compare-and-mint in one transaction: when `expected_version_id` is not the current version the edit is refused with 409 `version_conflict` and `details: {expected_version_id, current_version_id}` (of concurrent edits from one version exactly one wins).',
    'A change of scenario, behaviors, personas or mock tools mints version N+1 with a new `tstv_` id; identical content mints nothing and returns the current version; a name-only change renames without a new version.',
    'Personas are compared by what was written and by the persona ids it resolves to now.',
  ].join(' '),
  auth: 'key',
  params: TestIdParams,
  body: PatchTestBody,
  status: 200,
  response: TestObject,
  errors: { 404: ['not_found'], 409: ['version_conflict', 'name_taken'], 422: ['unknown_persona'] },
});

export const listTests = defineOperation({
  operationId: 'listTests',
  method: 'get',
  path: '/api/tests',
  tag: 'Tests',
  summary: 'List a project\'s tests at their current versions, newest first',
  description: 'Keyset pages: `next_cursor` is the id of the last item (null on the last page); a page costs the same at any depth and a test created between pages is never returned twice.',
  auth: 'key',
  query: GetTestsQuery,
  status: 200,
  response: GetTestsResponse,
  errors: { 400: ['project_required'], 404: ['not_found'] },
});

export const getTest = defineOperation({
  operationId: 'getTest',
  method: 'get',
  path: '/api/tests/{testId}',
  tag: 'Tests',
  summary: 'One test at its current version',
  auth: 'key',
  params: TestIdParams,
  status: 200,
  response: TestObject,
  errors: { 404: ['not_found'] },
});

export const listTestVersions = defineOperation({
  operationId: 'listTestVersions',
  method: 'get',
  path: '/api/tests/{testId}/versions',
  tag: 'Tests',
  summary: 'Every version of a test, newest first',
  auth: 'key',
  params: TestIdParams,
  query: CursorQuery,
  status: 200,
  response: GetTestVersionsResponse,
  errors: { 404: ['not_found'] },
});

export const getTestVersion = defineOperation({
  operationId: 'getTestVersion',
  method: 'get',
  path: '/api/test-versions/{versionId}',
  tag: 'Tests',
  summary: 'One immutable test version',
  description: 'Content is frozen at minting; `is_current` turns false once a later edit supersedes it.',
  auth: 'key',
  params: TestVersionIdParams,
  status: 200,
  response: TestVersionObject,
  errors: { 404: ['not_found'] },
});

export const testOperations = [createTest, updateTest, listTests, getTest, listTestVersions, getTestVersion] as const;
