import { type BodyInputOf, type PersonaObject, createPersona, getPersona, listPersonas, updatePersona } from '@svc/contract';
import { PagedList } from '../core/pagination.js';
import type { Transport } from '../core/transport.js';

/** Personas: the simulated callers of a project. */
export class PersonasResource {
  constructor(private readonly t: Transport) {}

  /** Creates a persona; refused voice settings throw `ValidationError` (code `voice_option_unsupported`). */
  create(body: BodyInputOf<typeof createPersona>): Promise<PersonaObject> {
    return this.t.request(createPersona, { body });
  }

  /** Every persona of the project (the default among them), newest first. */
  list(filter: { project?: string; limit?: number } = {}): PagedList<PersonaObject> {
    return new PagedList(async (cursor) => {
      const page = await this.t.request(listPersonas, { query: { ...filter, cursor } });
      return { items: page.items, next: page.next_cursor };
    });
  }

  get(personaId: string): Promise<PersonaObject> {
    return this.t.request(getPersona, { params: { personaId } });
  }

  /** Edits a persona; `{ is_default: true }` makes it the project default. */
  update(personaId: string, body: BodyInputOf<typeof updatePersona>): Promise<PersonaObject> {
    return this.t.request(updatePersona, { params: { personaId }, body, idempotent: true });
  }
}
