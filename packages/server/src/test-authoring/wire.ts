import type { TestObject, TestObjectV1, TestVersionObject } from '@svc/contract';
import type { TestRecord, TestVersionRecord } from './rows.js';

/** `/api` test object. */
export function toTestObject(t: TestRecord): TestObject {
  return {
    id: t.id,
    name: t.name,
    project_id: t.projectId,
    version: t.version,
    version_id: t.versionId,
    scenario: t.content.scenario,
    expected_behaviors: t.content.expectedBehaviors,
    personas: t.content.personas,
    mock_tools: t.content.mockTools,
    created_at: t.createdAt,
    updated_at: t.updatedAt,
  };
}

/** `/api` test-version object. */
export function toTestVersionObject(v: TestVersionRecord): TestVersionObject {
  return {
    id: v.id,
    test_id: v.testId,
    name: v.name,
    version: v.version,
    is_current: v.isCurrent,
    scenario: v.content.scenario,
    expected_behaviors: v.content.expectedBehaviors,
    personas: v.content.personas,
    mock_tools: v.content.mockTools,
    created_at: v.createdAt,
  };
}

/** `/v1` (camelCase) test object. */
export function toTestObjectV1(t: TestRecord): TestObjectV1 {
  return {
    id: t.id,
    name: t.name,
    projectId: t.projectId,
    version: t.version,
    versionId: t.versionId,
    scenario: t.content.scenario,
    expectedBehaviors: t.content.expectedBehaviors,
    personas: t.content.personas,
    mockTools: t.content.mockTools.map(({ delay_ms, ...rest }) => ({ ...rest, ...(delay_ms !== undefined ? { delayMs: delay_ms } : {}) })),
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}
