import { defineOperation } from '../operation.js';
import {
  GetTestSuitesQuery,
  GetTestSuitesResponse,
  GetTestsV1Query,
  GetTestsV1Response,
  PostTestSuiteTestsBody,
  PostTestSuitesBody,
  PostTestSuitesQuery,
  TestSuiteIdParams,
  TestSuiteResponse,
  TestSuiteTestParams,
} from '../resources/test-suites.js';

export const listTestSuites = defineOperation({
  operationId: 'listTestSuites',
  method: 'get',
  path: '/v1/test-suites',
  tag: 'Test suites',
  summary: 'List a project\'s test suites, newest first',
  auth: 'key_or_session',
  query: GetTestSuitesQuery,
  status: 200,
  response: GetTestSuitesResponse,
  errors: { 400: ['project_required'], 404: ['not_found'] },
});

export const createTestSuite = defineOperation({
  operationId: 'createTestSuite',
  method: 'post',
  path: '/v1/test-suites',
  tag: 'Test suites',
  summary: 'Create a test suite',
  description: 'Names are unique in the project (409 `name_taken`). `testIds` must name tests of the same project (422 `unknown_test`).',
  auth: 'key_or_session',
  query: PostTestSuitesQuery,
  body: PostTestSuitesBody,
  status: 201,
  response: TestSuiteResponse,
  errors: { 400: ['project_required'], 404: ['not_found'], 409: ['name_taken'], 422: ['unknown_test'] },
});

export const getTestSuite = defineOperation({
  operationId: 'getTestSuite',
  method: 'get',
  path: '/v1/test-suites/{suiteId}',
  tag: 'Test suites',
  summary: 'One test suite',
  auth: 'key_or_session',
  params: TestSuiteIdParams,
  status: 200,
  response: TestSuiteResponse,
  errors: { 404: ['not_found'] },
});

export const addTestSuiteTests = defineOperation({
  operationId: 'addTestSuiteTests',
  method: 'post',
  path: '/v1/test-suites/{suiteId}/tests',
  tag: 'Test suites',
  summary: 'Add tests to a suite',
  description: 'All or nothing: any id that is not a test of the suite\'s project is 422 `unknown_test` and nothing is added. Tests already in the suite stay where they are.',
  auth: 'key_or_session',
  params: TestSuiteIdParams,
  body: PostTestSuiteTestsBody,
  status: 200,
  response: TestSuiteResponse,
  errors: { 404: ['not_found'], 422: ['unknown_test'] },
});

export const removeTestSuiteTest = defineOperation({
  operationId: 'removeTestSuiteTest',
  method: 'delete',
  path: '/v1/test-suites/{suiteId}/tests/{testId}',
  tag: 'Test suites',
  summary: 'Remove a test from a suite',
  description: 'Returns the suite. 404 when the suite is invisible or the test is not in it.',
  auth: 'key_or_session',
  params: TestSuiteTestParams,
  status: 200,
  response: TestSuiteResponse,
  errors: { 404: ['not_found'] },
});

export const listSuiteTests = defineOperation({
  operationId: 'listSuiteTests',
  method: 'get',
  path: '/v1/tests',
  tag: 'Test suites',
  summary: 'List the tests of a suite at their current versions, newest first',
  description: '`suiteId` is required (400 `invalid_request` without it).',
  auth: 'key_or_session',
  query: GetTestsV1Query,
  status: 200,
  response: GetTestsV1Response,
  errors: { 404: ['not_found'] },
});

export const testSuiteOperations = [listTestSuites, createTestSuite, getTestSuite, addTestSuiteTests, removeTestSuiteTest, listSuiteTests] as const;
