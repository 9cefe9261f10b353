import { z } from 'zod';
import { CursorQuery, Id, Timestamp, cursorPage } from '../common.js';

const setting = (description: string) => z.string().trim().min(1).max(200).nullable().describe(description);
const level = (description: string) => z.number().min(0).max(10).nullable().describe(description);

/**
 * A persona's voice settings, each null when unset. They are checked against
 * what the chosen speech providers support (`GET /v1/persona-capabilities`).
 */
export const PersonaVoice = z
  .strictObject({
    tts_provider: setting('Speech-synthesis provider'),
    tts_model: setting('Speech-synthesis model'),
    stt_provider: setting('Speech-recognition provider'),
    stt_model: setting('Speech-recognition model'),
    voice_id: setting('Voice id of the synthesis provider'),
    language: setting('Language tag, e.g. `en-US`'),
    accent: setting('Accent, e.g. `british`'),
    emotion: setting('Emotion, e.g. `calm`'),
    speed: level('Speaking speed (1 is normal)'),
    speech_volume: level('Speech volume (1 is normal)'),
  })
  .meta({ id: 'PersonaVoice' });
export type PersonaVoice = z.infer<typeof PersonaVoice>;

/** Voice settings in a request: any subset; a member set to null clears it. */
export const PersonaVoiceInput = PersonaVoice.partial().describe('Any subset of the voice settings; on edit, members not sent stay as they are and null clears one.');
export type PersonaVoiceInput = z.infer<typeof PersonaVoiceInput>;

/** A persona: who calls the agent in a simulated conversation. */
export const PersonaObject = z
  .strictObject({
    id: z.string().describe('`prs_...`'),
    project_id: z.string(),
    name: z.string().describe('Unique in the project; tests may name a persona by it'),
    description: z.string().nullable().describe('Who the caller is and how they talk; null when unset'),
    is_default: z.boolean().describe('The project default persona (exactly one per project), used by tests that name none'),
    voice: PersonaVoice,
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Persona' });
export type PersonaObject = z.infer<typeof PersonaObject>;

/** Persona names: not shaped like an id, so "name or `prs_` id" stays unambiguous. */
export const PersonaName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^(?!prs_)[^\u0000-\u001f]+$/, 'must not start with prs_ or contain control characters');

export const PersonaDescription = z.string().trim().max(4000);

export const PostPersonasBody = z.strictObject({
  name: PersonaName,
  description: PersonaDescription.nullable().optional(),
  voice: PersonaVoiceInput.optional(),
  project: Id.optional().describe('Project id or name; defaults to the key\'s project'),
});
export type PostPersonasBody = z.infer<typeof PostPersonasBody>;

export const PatchPersonaBody = z.strictObject({
  name: PersonaName.optional(),
  description: PersonaDescription.nullable().optional().describe('null clears it'),
  voice: PersonaVoiceInput.optional(),
  is_default: z
    .literal(true)
    .optional()
    .describe('`true` makes this the project default; the previous default stops being it. A project always has one default, so `false` is refused.'),
});
export type PatchPersonaBody = z.infer<typeof PatchPersonaBody>;

export const GetPersonasQuery = CursorQuery.extend({
  project: Id.optional().describe('Project id or name; defaults to the key\'s project'),
});
export const GetPersonasResponse = cursorPage(PersonaObject);
export const PersonaIdParams = z.strictObject({ personaId: Id });

/** One refused voice setting, as `details.refusals` of a 422 `voice_option_unsupported` lists it. */
export const VoiceRefusal = z.strictObject({
  field: z.string().describe('The refused member of `voice`, e.g. `emotion`'),
  reason: z.string(),
});
export type VoiceRefusal = z.infer<typeof VoiceRefusal>;
