import { AppError, notFound } from '../http/errors.js';
import type { Principal } from '../http/principal.js';
import type { ProjectRecord, ProjectRepository } from './repository.js';

/**
 * The project an operation acts in. A project-scoped key always acts in its
 * own project: naming any other (by id or name, existing or not) is 403, so
 * nothing about other projects leaks. Other credentials must name one.
 */
export async function resolveProject(projects: ProjectRepository, principal: Principal, ref: string | undefined): Promise<ProjectRecord> {
  if (principal.projectId) {
    const own = await projects.findByRef(principal.organizationId, principal.projectId);
    if (!own) throw notFound('project');
    if (ref !== undefined && ref !== own.id && ref !== own.name) {
      throw new AppError('not_permitted', 'This key is scoped to another project; a project key never reaches a different project.');
    }
    return own;
  }
  if (ref === undefined) {
    throw new AppError('project_required', 'Name the project (id or name): this credential is not scoped to one project.');
  }
  const project = await projects.findByRef(principal.organizationId, ref);
  if (!project) throw notFound('project');
  return project;
}
