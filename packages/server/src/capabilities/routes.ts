import { getPersonaCapabilities } from '@svc/contract';
import { type Route, defineRoute } from '../http/define-route.js';
import type { ProjectRepository } from '../projects/repository.js';
import { resolveProject } from '../projects/resolve.js';
import type { CapabilityLookup } from './lookup.js';

/** `GET /v1/persona-capabilities`: any role reads; a named project is checked against the credential. */
export function capabilityRoutes(lookup: CapabilityLookup, projects: ProjectRepository): Route[] {
  return [
    defineRoute(getPersonaCapabilities, async ({ principal, query }) => {
      if (query.projectId !== undefined || principal.projectId) await resolveProject(projects, principal, query.projectId);
      const { projectId: _project, ...input } = query;
      return lookup.lookup(principal.organizationId, input);
    }),
  ];
}
