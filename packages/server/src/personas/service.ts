import type { PatchPersonaBody, PersonaObject, PostPersonasBody } from '@svc/contract';
import { AppError, nameTaken, notFound } from '../http/errors.js';
import { type Principal, lookupScope, requireWriter } from '../http/principal.js';
import type { ProjectRepository } from '../projects/repository.js';
import { resolveProject } from '../projects/resolve.js';
import { nowIso } from '../shared/ids.js';
import type { Page } from '../storage/sqlite/keyset.js';
import type { PersonaRecord, PersonaRepository, PersonaWrite, ProjectScope } from './repository.js';
import { type FullVoiceSettings, applyVoiceInput, emptyVoice, toWireRefusals, toWireVoice } from './voice.js';
import type { PersonaVoiceValidator } from './voice-validator.js';

/** Edits retried when a concurrent edit lands between validation and write. */
const MAX_EDIT_ATTEMPTS = 5;

/** The wire form of a persona. */
export function toPersonaObject(p: PersonaRecord): PersonaObject {
  return {
    id: p.id,
    project_id: p.projectId,
    name: p.name,
    description: p.description,
    is_default: p.isDefault,
    voice: toWireVoice(p.voice),
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  };
}

/** Personas: creation, edits, the project default, and voice settings checked by the injected validator. */
export class PersonaService {
  constructor(
    private readonly personas: PersonaRepository,
    private readonly projects: ProjectRepository,
    private readonly voices: PersonaVoiceValidator,
  ) {}

  async create(principal: Principal, body: PostPersonasBody): Promise<PersonaObject> {
    requireWriter(principal);
    const scope = await this.projectScope(principal, body.project);
    const voice = applyVoiceInput(emptyVoice(), body.voice);
    await this.checkVoice(principal.organizationId, voice);
    const written = await this.personas.create(scope, { name: body.name, description: body.description ?? null, voice }, nowIso());
    return toPersonaObject(this.unwrap(written, body.name));
  }

  async list(principal: Principal, query: { project?: string | undefined; cursor?: string | undefined; limit?: number | undefined }): Promise<Page<PersonaObject>> {
    const scope = await this.projectScope(principal, query.project);
    const page = await this.personas.list(scope, nowIso(), { afterId: query.cursor, limit: query.limit ?? 50 });
    return { items: page.items.map(toPersonaObject), next: page.next };
  }

  async get(principal: Principal, personaId: string): Promise<PersonaObject> {
    const found = await this.personas.get(lookupScope(principal), personaId);
    if (!found) throw notFound('persona');
    return toPersonaObject(found);
  }

  /**
   * Voice members not sent keep their values, so the merged settings are what
   * gets validated; the write then checks nothing changed in between (else
   * it starts over from the new state).
   */
  async update(principal: Principal, personaId: string, body: PatchPersonaBody): Promise<PersonaObject> {
    requireWriter(principal);
    const scope = lookupScope(principal);
    for (let attempt = 0; attempt < MAX_EDIT_ATTEMPTS; attempt++) {
      const current = await this.personas.get(scope, personaId);
      if (!current) throw notFound('persona');
      let voice: FullVoiceSettings | undefined;
      if (body.voice) {
        voice = applyVoiceInput(current.voice, body.voice);
        await this.checkVoice(principal.organizationId, voice);
      }
      const written = await this.personas.update(
        scope,
        personaId,
        current.revision,
        {
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(voice ? { voice } : {}),
          ...(body.is_default ? { makeDefault: true } : {}),
        },
        nowIso(),
      );
      if (written.kind !== 'stale') return toPersonaObject(this.unwrap(written, body.name ?? current.name));
    }
    throw new AppError('unavailable', 'The persona is being edited concurrently; try again.');
  }

  private async projectScope(principal: Principal, ref: string | undefined): Promise<ProjectScope> {
    const project = await resolveProject(this.projects, principal, ref);
    return { organizationId: principal.organizationId, projectId: project.id };
  }

  private async checkVoice(organizationId: string, voice: FullVoiceSettings): Promise<void> {
    // A persona that chooses nothing leaves every choice to the run's defaults: nothing to check.
    if (Object.values(voice).every((v) => v === null)) return;
    const refusals = await this.voices.validate(organizationId, voice);
    if (refusals.length > 0) {
      const wire = toWireRefusals(refusals);
      throw new AppError(
        'voice_option_unsupported',
        `The voice settings are not supported: ${wire.map((r) => `${r.field}: ${r.reason}`).join('; ')}`,
        { refusals: wire },
      );
    }
  }

  private unwrap(written: PersonaWrite, name: string): PersonaRecord {
    if (written.kind === 'ok') return written.persona;
    if (written.kind === 'name_taken') throw nameTaken('persona', name);
    throw notFound('persona');
  }
}
