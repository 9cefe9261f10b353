import { createPersona, getPersona, listPersonas, updatePersona } from '@svc/contract';
import { type Route, defineRoute } from '../http/define-route.js';
import type { PersonaService } from './service.js';

/** `/api/personas`: viewers read, writers create and edit; a project key stays in its project. */
export function personaRoutes(personas: PersonaService): Route[] {
  return [
    defineRoute(createPersona, ({ principal, body }) => personas.create(principal, body)),
    defineRoute(listPersonas, async ({ principal, query }) => {
      const page = await personas.list(principal, query);
      return { items: page.items, next_cursor: page.next };
    }),
    defineRoute(getPersona, ({ principal, params }) => personas.get(principal, params.personaId)),
    defineRoute(updatePersona, ({ principal, params, body }) => personas.update(principal, params.personaId, body)),
  ];
}
