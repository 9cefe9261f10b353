import {
  archiveAgent,
  archiveConnection,
  createConnection,
  getAgent,
  getConnection,
  listAgents,
  listConnections,
  registerAgent,
  restoreAgent,
  restoreConnection,
} from '@svc/contract';
import { type Route, defineRoute } from '../http/define-route.js';
import { requireWriter } from '../http/principal.js';
import type { ProjectRepository } from '../projects/repository.js';
import { resolveProject } from '../projects/resolve.js';
import type { ConnectionService } from './connection-service.js';
import { byIdScope } from './scope.js';
import type { AgentService } from './service.js';

/** `/v1/agents` and `/v1/agents/{agentId}/connections`: viewers read, members and admins write. */
export function agentRoutes(agents: AgentService, connections: ConnectionService, projects: ProjectRepository): Route[] {
  return [
    defineRoute(registerAgent, async ({ principal, query, body }) => {
      requireWriter(principal);
      const project = await resolveProject(projects, principal, query.projectId);
      return { agent: await agents.register({ organizationId: principal.organizationId, projectId: project.id }, body) };
    }),
    defineRoute(listAgents, async ({ principal, query }) => {
      const project = await resolveProject(projects, principal, query.projectId);
      const page = await agents.list({ organizationId: principal.organizationId, projectId: project.id }, query.includeArchived ?? false, {
        afterId: query.pageToken,
        limit: query.pageSize ?? 50,
      });
      return { agents: page.items, nextPageToken: page.next };
    }),
    defineRoute(getAgent, async ({ principal, params, query }) => ({
      agent: await agents.get(await byIdScope(projects, principal, query.projectId), params.agentId),
    })),
    defineRoute(archiveAgent, async ({ principal, params, query }) => {
      requireWriter(principal);
      return { agent: await agents.archive(await byIdScope(projects, principal, query.projectId), params.agentId) };
    }),
    defineRoute(restoreAgent, async ({ principal, params, query, body }) => {
      requireWriter(principal);
      return { agent: await agents.restore(await byIdScope(projects, principal, query.projectId), params.agentId, body.name) };
    }),
    defineRoute(createConnection, async ({ principal, params, query, body }) => {
      requireWriter(principal);
      const agent = await agents.record(await byIdScope(projects, principal, query.projectId), params.agentId);
      const scope = { organizationId: principal.organizationId, projectId: agent.projectId };
      return { connection: await connections.create(scope, agent.id, body) };
    }),
    defineRoute(listConnections, async ({ principal, params, query }) => {
      const agent = await agents.record(await byIdScope(projects, principal, query.projectId), params.agentId);
      const page = await connections.list({ organizationId: principal.organizationId, agentId: agent.id }, query.includeArchived ?? false, {
        afterId: query.pageToken,
        limit: query.pageSize ?? 50,
      });
      return { connections: page.items, nextPageToken: page.next };
    }),
    defineRoute(getConnection, async ({ principal, params, query }) => ({
      connection: await connections.get(await byIdScope(projects, principal, query.projectId), params.agentId, params.connectionId),
    })),
    defineRoute(archiveConnection, async ({ principal, params, query }) => {
      requireWriter(principal);
      return { connection: await connections.archive(await byIdScope(projects, principal, query.projectId), params.agentId, params.connectionId) };
    }),
    defineRoute(restoreConnection, async ({ principal, params, query, body }) => {
      requireWriter(principal);
      const scope = await byIdScope(projects, principal, query.projectId);
      return { connection: await connections.restore(scope, params.agentId, params.connectionId, body.name) };
    }),
  ];
}
