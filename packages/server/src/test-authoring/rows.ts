import type { MockTool } from '@svc/contract';
import type { TestContent } from './content.js';

/** A test at its current version. */
export interface TestRecord {
  id: string;
  organizationId: string;
  projectId: string;
  name: string;
  version: number;
  versionId: string;
  content: TestContent;
  createdAt: string;
  updatedAt: string;
}

/** One frozen version, with the owning test's current name and version. */
export interface TestVersionRecord {
  id: string;
  testId: string;
  organizationId: string;
  projectId: string;
  name: string;
  version: number;
  isCurrent: boolean;
  content: TestContent;
  createdAt: string;
}

export interface TestRow {
  seq: number;
  id: string;
  organization_id: string;
  project_id: string;
  name: string;
  current_version_id: string;
  current_version: number;
  created_at: string;
  updated_at: string;
}

export interface VersionRow {
  id: string;
  test_id: string;
  organization_id: string;
  project_id: string;
  version: number;
  scenario: string;
  expected_behaviors: string;
  personas: string;
  persona_ids: string;
  mock_tools: string;
  content_hash: string;
  created_at: string;
}

/** A version row joined with its test's name and current version id. */
export type VersionWithTestRow = VersionRow & { test_name: string; current_version_id: string };

/** The content columns of a version row. */
export function contentOf(v: VersionRow): TestContent {
  return {
    scenario: v.scenario,
    expectedBehaviors: JSON.parse(v.expected_behaviors) as string[],
    personas: JSON.parse(v.personas) as string[],
    personaIds: JSON.parse(v.persona_ids) as string[],
    mockTools: JSON.parse(v.mock_tools) as MockTool[],
  };
}

/** A test row and its current version's content as a record. */
export function toTestRecord(t: TestRow, content: TestContent): TestRecord {
  return {
    id: t.id,
    organizationId: t.organization_id,
    projectId: t.project_id,
    name: t.name,
    version: t.current_version,
    versionId: t.current_version_id,
    content,
    createdAt: t.created_at,
    updatedAt: t.updated_at,
  };
}

/** A version row (joined with its test) as a record; `isCurrent` compares it with the test's current version. */
export function toVersionRecord(v: VersionWithTestRow): TestVersionRecord {
  return {
    id: v.id,
    testId: v.test_id,
    organizationId: v.organization_id,
    projectId: v.project_id,
    name: v.test_name,
    version: v.version,
    isCurrent: v.current_version_id === v.id,
    content: contentOf(v),
    createdAt: v.created_at,
  };
}
