import { getConversation, listConversations } from '@svc/contract';
import { type Route, defineRoute } from '../http/define-route.js';
import { notFound } from '../http/errors.js';
import { lookupScope } from '../http/principal.js';
import type { ProjectRepository } from '../projects/repository.js';
import { resolveProject } from '../projects/resolve.js';
import type { ConversationRepository } from './repository.js';

/** Read API over production conversations from every source. */
export function conversationRoutes(conversations: ConversationRepository, projects: ProjectRepository): Route[] {
  return [
    defineRoute(listConversations, async ({ principal, query }) => {
      const project = await resolveProject(projects, principal, query.project);
      const page = await conversations.list(
        {
          organizationId: principal.organizationId,
          projectId: project.id,
          agentId: query.agent_id,
          source: query.source,
          startedAfter: query.started_after,
          startedBefore: query.started_before,
        },
        { afterId: query.cursor, limit: query.limit ?? 50 },
      );
      return { items: page.items, next_cursor: page.next };
    }),
    defineRoute(getConversation, async ({ principal, params }) => {
      const found = await conversations.get(lookupScope(principal), params.conversationId);
      if (!found) throw notFound('conversation');
      return found;
    }),
  ];
}
