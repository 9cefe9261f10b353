import { type ProjectObject, createProject, listProjects } from '@svc/contract';
import { nameTaken } from '../http/errors.js';
import { type Route, defineRoute } from '../http/define-route.js';
import { requireAdmin, requireOrgWide } from '../http/principal.js';
import { newId, nowIso } from '../shared/ids.js';
import type { ProjectRecord, ProjectRepository } from './repository.js';

const toObject = (p: ProjectRecord): ProjectObject => ({ id: p.id, name: p.name, createdAt: p.createdAt });

/** `/v1/projects`: any org-wide credential lists, admins create. Project keys get 403. */
export function projectRoutes(projects: ProjectRepository): Route[] {
  return [
    defineRoute(listProjects, async ({ principal, query }) => {
      requireOrgWide(principal);
      const page = await projects.list(principal.organizationId, { afterId: query.pageToken, limit: query.pageSize ?? 50 });
      return { projects: page.items.map(toObject), nextPageToken: page.next };
    }),
    defineRoute(createProject, async ({ principal, body }) => {
      requireOrgWide(principal);
      requireAdmin(principal);
      const created = await projects.create({ id: newId('prj_'), organizationId: principal.organizationId, name: body.name, createdAt: nowIso() });
      if (!created) throw nameTaken('project', body.name);
      return { project: toObject(created) };
    }),
  ];
}
