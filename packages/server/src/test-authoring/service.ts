import type { PatchTestBody, PostTestsBody, TestObject, TestVersionObject } from '@svc/contract';
import { AppError, nameTaken, notFound } from '../http/errors.js';
import { type LookupScope, type Principal, lookupScope, requireWriter } from '../http/principal.js';
import type { PersonaRepository, ProjectScope } from '../personas/repository.js';
import type { ProjectRepository } from '../projects/repository.js';
import { resolveProject } from '../projects/resolve.js';
import { nowIso } from '../shared/ids.js';
import type { Page } from '../storage/sqlite/keyset.js';
import type { TestRepository } from './repository.js';
import { toTestObject, toTestVersionObject } from './wire.js';

type PageQuery = { cursor?: string | undefined; limit?: number | undefined };

/** Tests and their versions: the rules of creation, versioned edits and visibility. */
export class TestService {
  constructor(
    private readonly tests: TestRepository,
    private readonly personas: PersonaRepository,
    private readonly projects: ProjectRepository,
  ) {}

  async create(principal: Principal, body: PostTestsBody): Promise<TestObject> {
    requireWriter(principal);
    const project = await resolveProject(this.projects, principal, body.project);
    const scope = { organizationId: principal.organizationId, projectId: project.id };
    const refs = body.personas ?? [];
    const personaIds = await this.resolvePersonas(scope, refs);
    const created = await this.tests.create({
      organizationId: scope.organizationId,
      projectId: scope.projectId,
      name: body.name,
      content: { scenario: body.scenario, expectedBehaviors: body.expected_behaviors, personas: refs, personaIds, mockTools: body.mock_tools ?? [] },
      at: nowIso(),
    });
    if (!created) throw nameTaken('test', body.name);
    return toTestObject(created);
  }

  /** A versioned edit (see `TestRepository.update`); personas are resolved in the test's own project. */
  async update(principal: Principal, testId: string, body: PatchTestBody): Promise<TestObject> {
    requireWriter(principal);
    const scope = await this.lookup(principal, body.project);
    let personas: { refs: string[]; ids: string[] } | undefined;
    if (body.personas !== undefined) {
      const test = await this.tests.get(scope, testId);
      if (!test) throw notFound('test');
      const ids = await this.resolvePersonas({ organizationId: test.organizationId, projectId: test.projectId }, body.personas);
      personas = { refs: body.personas, ids };
    }
    const outcome = await this.tests.update(
      scope,
      testId,
      {
        expectedVersionId: body.expected_version_id,
        name: body.name,
        scenario: body.scenario,
        expectedBehaviors: body.expected_behaviors,
        personas,
        mockTools: body.mock_tools,
      },
      nowIso(),
    );
    switch (outcome.kind) {
      case 'ok':
        return toTestObject(outcome.test);
      case 'not_found':
        throw notFound('test');
      case 'name_taken':
        throw nameTaken('test', body.name ?? '');
      case 'conflict':
        throw new AppError(
          'version_conflict',
          `The test is no longer at version ${body.expected_version_id}; its current version is ${outcome.currentVersionId}. Re-read the test and apply the edit again.`,
          { expected_version_id: body.expected_version_id, current_version_id: outcome.currentVersionId },
        );
    }
  }

  async list(principal: Principal, query: PageQuery & { project?: string | undefined }): Promise<Page<TestObject>> {
    const project = await resolveProject(this.projects, principal, query.project);
    const page = await this.tests.list(project.id, { afterId: query.cursor, limit: query.limit ?? 50 });
    return { items: page.items.map(toTestObject), next: page.next };
  }

  async get(principal: Principal, testId: string): Promise<TestObject> {
    const found = await this.tests.get(lookupScope(principal), testId);
    if (!found) throw notFound('test');
    return toTestObject(found);
  }

  async getVersion(principal: Principal, versionId: string): Promise<TestVersionObject> {
    const found = await this.tests.getVersion(lookupScope(principal), versionId);
    if (!found) throw notFound('test version');
    return toTestVersionObject(found);
  }

  async listVersions(principal: Principal, testId: string, query: PageQuery): Promise<Page<TestVersionObject>> {
    const page = await this.tests.listVersions(lookupScope(principal), testId, { afterId: query.cursor, limit: query.limit ?? 50 });
    if (!page) throw notFound('test');
    return { items: page.items.map(toTestVersionObject), next: page.next };
  }

  /** The scope a by-id edit searches: the named project (a project key may name only its own), else the credential's reach. */
  private async lookup(principal: Principal, ref: string | undefined): Promise<LookupScope> {
    if (ref === undefined) return lookupScope(principal);
    const project = await resolveProject(this.projects, principal, ref);
    return { organizationId: principal.organizationId, projectId: project.id };
  }

  private async resolvePersonas(scope: ProjectScope, refs: string[]): Promise<string[]> {
    const resolved = await this.personas.resolve(scope, refs, nowIso());
    if (!resolved.ok) {
      throw new AppError('unknown_persona', `No persona of the project is named or identified by: ${resolved.unknown.join(', ')}.`, { unknown: resolved.unknown });
    }
    const seen = new Set<string>();
    const issues: { path: string; message: string }[] = [];
    resolved.ids.forEach((id, i) => {
      if (seen.has(id)) issues.push({ path: `personas.${i}`, message: `"${refs[i]}" names a persona already listed` });
      seen.add(id);
    });
    if (issues.length > 0) {
      throw new AppError('validation_failed', `A persona is listed more than once: ${issues.map((i) => i.message).join('; ')}.`, { issues });
    }
    return resolved.ids;
  }
}
