import type { LookupScope } from '../http/principal.js';
import { newId } from '../shared/ids.js';
import type { RelationalStore, SqliteDb } from '../storage/sqlite/connection.js';
import { type Page, isUniqueViolation, keysetPage } from '../storage/sqlite/keyset.js';
import { type FullVoiceSettings, VOICE_FIELDS } from './voice.js';

/** Name of the persona every project gets with its first persona use. */
export const DEFAULT_PERSONA_NAME = 'default';

export interface PersonaRecord {
  id: string;
  organizationId: string;
  projectId: string;
  name: string;
  description: string | null;
  isDefault: boolean;
  voice: FullVoiceSettings;
  revision: number;
  createdAt: string;
  updatedAt: string;
}

/** A project a persona operation acts in. */
export interface ProjectScope {
  organizationId: string;
  projectId: string;
}

export interface PersonaChange {
  name?: string;
  description?: string | null;
  voice?: FullVoiceSettings;
  makeDefault?: boolean;
}

export type PersonaWrite = { kind: 'ok'; persona: PersonaRecord } | { kind: 'name_taken' } | { kind: 'not_found' } | { kind: 'stale' };

/** Persona references of a test resolved to ids, or the ones that name no persona of the project. */
export type PersonaResolution = { ok: true; ids: string[] } | { ok: false; unknown: string[] };

export interface PersonaRepository {
  create(scope: ProjectScope, persona: { name: string; description: string | null; voice: FullVoiceSettings }, at: string): Promise<PersonaWrite>;
  list(scope: ProjectScope, at: string, page: { afterId?: string | undefined; limit: number }): Promise<Page<PersonaRecord>>;
  get(scope: LookupScope, personaId: string): Promise<PersonaRecord | null>;
  /** Applies a change if the persona is still at `expectedRevision` ('stale' otherwise). */
  update(scope: LookupScope, personaId: string, expectedRevision: number, change: PersonaChange, at: string): Promise<PersonaWrite>;
  /** Resolves names and `prs_` ids of the project; `[]` is the project default (created if needed). */
  resolve(scope: ProjectScope, refs: readonly string[], at: string): Promise<PersonaResolution>;
}

/** Voice columns are named as the wire's voice members. */
const COLUMNS = Object.keys(VOICE_FIELDS);

type PersonaRow = Record<string, unknown> & {
  id: string;
  organization_id: string;
  project_id: string;
  name: string;
  description: string | null;
  is_default: number;
  revision: number;
  created_at: string;
  updated_at: string;
};

const toRecord = (r: PersonaRow): PersonaRecord => ({
  id: r.id,
  organizationId: r.organization_id,
  projectId: r.project_id,
  name: r.name,
  description: r.description,
  isDefault: r.is_default === 1,
  voice: Object.fromEntries(Object.values(VOICE_FIELDS).map((f, i) => [f, r[COLUMNS[i]!] ?? null])) as FullVoiceSettings,
  revision: r.revision,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const voiceValues = (v: FullVoiceSettings) => Object.values(VOICE_FIELDS).map((f) => v[f]);

function scopeWhere(scope: LookupScope): { sql: string; params: unknown[] } {
  return scope.projectId
    ? { sql: 'organization_id = ? AND project_id = ?', params: [scope.organizationId, scope.projectId] }
    : { sql: 'organization_id = ?', params: [scope.organizationId] };
}

/**
 * Makes sure the project has its default persona; returns its id. Called
 * inside the transaction of the write that needs it, so the default and that
 * write commit together (the partial unique index keeps it to one).
 */
export function ensureDefaultPersona(db: SqliteDb, scope: ProjectScope, at: string): string {
  const found = db.prepare('SELECT id FROM personas WHERE project_id = ? AND is_default = 1').get(scope.projectId) as { id: string } | undefined;
  if (found) return found.id;
  const id = newId('prs_');
  db.prepare(
    `INSERT INTO personas (id, organization_id, project_id, name, description, is_default, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?)`,
  ).run(id, scope.organizationId, scope.projectId, DEFAULT_PERSONA_NAME, 'The project default caller', at, at);
  return id;
}

/** Personas in the relational store. */
export class SqlitePersonaRepository implements PersonaRepository {
  constructor(private readonly store: RelationalStore) {}

  async create(scope: ProjectScope, p: { name: string; description: string | null; voice: FullVoiceSettings }, at: string): Promise<PersonaWrite> {
    const id = newId('prs_');
    try {
      return this.store.immediate((): PersonaWrite => {
        ensureDefaultPersona(this.store.db, scope, at);
        this.store.db
          .prepare(
            `INSERT INTO personas (id, organization_id, project_id, name, description, ${COLUMNS.join(', ')}, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ${COLUMNS.map(() => '?').join(', ')}, ?, ?)`,
          )
          .run(id, scope.organizationId, scope.projectId, p.name, p.description, ...voiceValues(p.voice), at, at);
        return { kind: 'ok', persona: this.row(id)! };
      });
    } catch (err) {
      if (isUniqueViolation(err)) return { kind: 'name_taken' };
      throw err;
    }
  }

  async list(scope: ProjectScope, at: string, page: { afterId?: string | undefined; limit: number }): Promise<Page<PersonaRecord>> {
    const db = this.store.db;
    const hasDefault = db.prepare('SELECT 1 FROM personas WHERE project_id = ? AND is_default = 1').get(scope.projectId);
    if (!hasDefault) this.store.immediate(() => ensureDefaultPersona(db, scope, at));
    return keysetPage<PersonaRow, PersonaRecord>(
      db,
      { table: 'personas', where: 'project_id = ?', params: [scope.projectId], afterId: page.afterId, limit: page.limit },
      toRecord,
    );
  }

  async get(scope: LookupScope, personaId: string): Promise<PersonaRecord | null> {
    const where = scopeWhere(scope);
    const row = this.store.db.prepare(`SELECT * FROM personas WHERE id = ? AND ${where.sql}`).get(personaId, ...where.params) as PersonaRow | undefined;
    return row ? toRecord(row) : null;
  }

  async update(scope: LookupScope, personaId: string, expectedRevision: number, change: PersonaChange, at: string): Promise<PersonaWrite> {
    const where = scopeWhere(scope);
    try {
      return this.store.immediate((): PersonaWrite => {
        const db = this.store.db;
        const row = db.prepare(`SELECT * FROM personas WHERE id = ? AND ${where.sql}`).get(personaId, ...where.params) as PersonaRow | undefined;
        if (!row) return { kind: 'not_found' };
        if (row.revision !== expectedRevision) return { kind: 'stale' };
        const current = toRecord(row);
        const voice = change.voice ?? current.voice;
        if (change.makeDefault && !current.isDefault) {
          db.prepare('UPDATE personas SET is_default = 0, updated_at = ?, revision = revision + 1 WHERE project_id = ? AND is_default = 1').run(at, current.projectId);
        }
        db.prepare(
          `UPDATE personas SET name = ?, description = ?, is_default = ?, ${COLUMNS.map((c) => `${c} = ?`).join(', ')}, revision = revision + 1, updated_at = ? WHERE id = ?`,
        ).run(
          change.name ?? current.name,
          change.description !== undefined ? change.description : current.description,
          change.makeDefault || current.isDefault ? 1 : 0,
          ...voiceValues(voice),
          at,
          personaId,
        );
        return { kind: 'ok', persona: this.row(personaId)! };
      });
    } catch (err) {
      if (isUniqueViolation(err)) return { kind: 'name_taken' };
      throw err;
    }
  }

  async resolve(scope: ProjectScope, refs: readonly string[], at: string): Promise<PersonaResolution> {
    const db = this.store.db;
    if (refs.length === 0) return { ok: true, ids: [this.store.immediate(() => ensureDefaultPersona(db, scope, at))] };
    const byId = db.prepare('SELECT id FROM personas WHERE project_id = ? AND id = ?');
    const byName = db.prepare('SELECT id FROM personas WHERE project_id = ? AND name = ?');
    const ids: string[] = [];
    const unknown: string[] = [];
    for (const ref of refs) {
      let row = (ref.startsWith('prs_') ? byId : byName).get(scope.projectId, ref) as { id: string } | undefined;
      // "default" names the project default even before its first use has created it.
      if (!row && ref === DEFAULT_PERSONA_NAME && !db.prepare('SELECT 1 FROM personas WHERE project_id = ? LIMIT 1').get(scope.projectId)) {
        row = { id: this.store.immediate(() => ensureDefaultPersona(db, scope, at)) };
      }
      if (row) ids.push(row.id);
      else unknown.push(ref);
    }
    return unknown.length ? { ok: false, unknown } : { ok: true, ids };
  }

  private row(id: string): PersonaRecord | null {
    const row = this.store.db.prepare('SELECT * FROM personas WHERE id = ?').get(id) as PersonaRow | undefined;
    return row ? toRecord(row) : null;
  }
}
