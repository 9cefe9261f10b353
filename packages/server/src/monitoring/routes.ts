import {
  deleteMonitoringSetup,
  discoverPlatformAAgents,
  enablePlatformBMonitoring,
  listMonitoringSetups,
  replayImportFailure,
  savePlatformAMonitoring,
} from '@svc/contract';
import { type Route, defineRoute } from '../http/define-route.js';
import { requireWriter } from '../http/principal.js';
import type { ProjectRepository } from '../projects/repository.js';
import { resolveProject } from '../projects/resolve.js';
import type { MonitoringService } from './service.js';

/** `/api/monitoring` operations. Everyone in the project reads; viewers change nothing and never send a platform key. */
export function monitoringRoutes(monitoring: MonitoringService, projects: ProjectRepository): Route[] {
  return [
    defineRoute(listMonitoringSetups, async ({ principal, query }) => monitoring.list(await resolveProject(projects, principal, query.project))),
    defineRoute(discoverPlatformAAgents, async ({ principal, query, body }) => {
      requireWriter(principal);
      await resolveProject(projects, principal, query.project);
      return monitoring.discover(body.api_key);
    }),
    defineRoute(savePlatformAMonitoring, async ({ principal, query, body }) => {
      requireWriter(principal);
      return monitoring.savePlatformA(await resolveProject(projects, principal, query.project), body);
    }),
    defineRoute(enablePlatformBMonitoring, async ({ principal, query }) => {
      requireWriter(principal);
      return monitoring.enablePlatformB(await resolveProject(projects, principal, query.project));
    }),
    defineRoute(deleteMonitoringSetup, async ({ principal, query, params }) => {
      requireWriter(principal);
      await monitoring.remove(await resolveProject(projects, principal, query.project), params.platform);
      return undefined;
    }),
    defineRoute(replayImportFailure, async ({ principal, query, params }) => {
      requireWriter(principal);
      return monitoring.replay(await resolveProject(projects, principal, query.project), params.failureId);
    }),
  ];
}
