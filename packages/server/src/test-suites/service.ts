import { type TestObjectV1, type TestSuiteObject, MAX_SUITE_TESTS } from '@svc/contract';
import { AppError, nameTaken, notFound } from '../http/errors.js';
import { type LookupScope, type Principal, lookupScope, requireWriter } from '../http/principal.js';
import type { ProjectRepository } from '../projects/repository.js';
import { resolveProject } from '../projects/resolve.js';
import { newId, nowIso } from '../shared/ids.js';
import type { Page } from '../storage/sqlite/keyset.js';
import type { TestRepository } from '../test-authoring/repository.js';
import { toTestObjectV1 } from '../test-authoring/wire.js';
import type { SuiteRecord, SuiteRepository, SuiteWrite } from './repository.js';

type PageQuery = { pageSize?: number | undefined; pageToken?: string | undefined };

const toObject = (s: SuiteRecord): TestSuiteObject => ({
  id: s.id,
  projectId: s.projectId,
  name: s.name,
  description: s.description,
  testIds: s.testIds,
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
});

/** Test suites: named sets of a project's tests. */
export class SuiteService {
  constructor(
    private readonly suites: SuiteRepository,
    private readonly tests: TestRepository,
    private readonly projects: ProjectRepository,
  ) {}

  async create(principal: Principal, projectRef: string | undefined, body: { name: string; description?: string | null | undefined; testIds?: string[] | undefined }): Promise<TestSuiteObject> {
    requireWriter(principal);
    const project = await resolveProject(this.projects, principal, projectRef);
    const written = await this.suites.create({
      id: newId('sut_'),
      organizationId: principal.organizationId,
      projectId: project.id,
      name: body.name,
      description: body.description ?? null,
      testIds: body.testIds ?? [],
      createdAt: nowIso(),
    });
    return toObject(unwrap(written, body.name));
  }

  async list(principal: Principal, query: PageQuery & { projectId?: string | undefined }): Promise<Page<TestSuiteObject>> {
    const project = await resolveProject(this.projects, principal, query.projectId);
    const page = await this.suites.list(project.id, { afterId: query.pageToken, limit: query.pageSize ?? 50 });
    return { items: page.items.map(toObject), next: page.next };
  }

  async get(principal: Principal, suiteId: string): Promise<TestSuiteObject> {
    const found = await this.suites.get(lookupScope(principal), suiteId);
    if (!found) throw notFound('test suite');
    return toObject(found);
  }

  async addTests(principal: Principal, suiteId: string, testIds: string[]): Promise<TestSuiteObject> {
    requireWriter(principal);
    return toObject(unwrap(await this.suites.addTests(lookupScope(principal), suiteId, testIds, nowIso()), ''));
  }

  async removeTest(principal: Principal, suiteId: string, testId: string): Promise<TestSuiteObject> {
    requireWriter(principal);
    return toObject(unwrap(await this.suites.removeTest(lookupScope(principal), suiteId, testId, nowIso()), ''));
  }

  /** The suite's tests at their current versions, newest first. */
  async listTests(principal: Principal, query: PageQuery & { suiteId: string; projectId?: string | undefined }): Promise<Page<TestObjectV1>> {
    let scope: LookupScope = lookupScope(principal);
    if (query.projectId !== undefined) {
      const project = await resolveProject(this.projects, principal, query.projectId);
      scope = { organizationId: principal.organizationId, projectId: project.id };
    }
    const found = await this.suites.pageTestIds(scope, query.suiteId, { afterId: query.pageToken, limit: query.pageSize ?? 50 });
    if (!found) throw notFound('test suite');
    const tests = await this.tests.getMany(found.suite.projectId, found.page.items);
    return { items: tests.map(toTestObjectV1), next: found.page.next };
  }
}

function unwrap(written: SuiteWrite, name: string): SuiteRecord {
  switch (written.kind) {
    case 'ok':
      return written.suite;
    case 'name_taken':
      throw nameTaken('test suite', name);
    case 'not_found':
      throw notFound('test suite');
    case 'not_member':
      throw new AppError('not_found', 'The test is not in this suite.');
    case 'unknown_tests':
      throw new AppError('unknown_test', `Not a test of the suite's project: ${written.ids.join(', ')}.`, { unknown: written.ids });
    case 'too_many':
      throw new AppError('validation_failed', `A suite holds at most ${MAX_SUITE_TESTS} tests.`, { issues: [{ path: 'testIds', message: `a suite holds at most ${written.limit} tests` }] });
  }
}
