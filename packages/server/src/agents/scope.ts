import { type LookupScope, type Principal, lookupScope } from '../http/principal.js';
import type { ProjectRecord, ProjectRepository } from '../projects/repository.js';
import { resolveProject } from '../projects/resolve.js';

/**
 * The scope of a by-id operation: the key's project, the named project, or
 * (org-wide credential, no project named) the whole organization, since ids
 * are unique. A project key naming another project is 403 via `resolveProject`.
 */
export async function byIdScope(projects: ProjectRepository, principal: Principal, projectRef: string | undefined): Promise<LookupScope> {
  if (principal.projectId || projectRef !== undefined) {
    const project: ProjectRecord = await resolveProject(projects, principal, projectRef);
    return { organizationId: principal.organizationId, projectId: project.id };
  }
  return lookupScope(principal);
}
