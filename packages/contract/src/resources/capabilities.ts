import { z } from 'zod';
import { Id, QueryBoolean } from '../common.js';

/**
 * How far an option can be chosen for a speech combination:
 * `supported` (choose among `choices` or within `range`, or free text when neither is given),
 * `fixed` (one `value`, set by the combination or the chosen voice),
 * `unsupported` (cannot be set), `unknown` (the catalog does not know; see `reason`).
 */
export const CapabilityStatus = z.enum(['supported', 'fixed', 'unsupported', 'unknown']).meta({ id: 'CapabilityStatus' });
export type CapabilityStatus = z.infer<typeof CapabilityStatus>;

export const CapabilityRange = z
  .strictObject({ minimum: z.number(), maximum: z.number(), step: z.number() })
  .meta({ id: 'CapabilityRange', description: 'Inclusive bounds and the granularity of a numeric option.' });
export type CapabilityRange = z.infer<typeof CapabilityRange>;

export const VoiceObject = z
  .strictObject({
    id: z.string().describe('The provider\'s voice id (for espeak-ng the voice file, e.g. `gmw/en-US`)'),
    name: z.string(),
    source: z.enum(['standard', 'account']).describe('`standard`: the provider\'s catalog; `account`: read from the organization\'s provider account'),
    presentation: z.enum(['male', 'female', 'neutral', 'unknown']).describe('The provider\'s own gender label; `unknown` where it publishes none'),
    languages: z.array(z.string()).describe('Language tags (primary subtag canonical, e.g. `en-us`); empty: follows the model'),
    accents: z.array(z.string()).describe('The provider\'s accent labels'),
  })
  .meta({ id: 'Voice' });
export type VoiceObject = z.infer<typeof VoiceObject>;

/** One option of the lookup; `choices` and `value` are typed per option. */
function capability<C extends z.ZodType>(id: string, choice: C) {
  return z
    .strictObject({
      status: CapabilityStatus,
      reason: z.string().optional().describe('Why this status, with the source\'s words where they matter'),
      choices: z.array(choice).optional(),
      value: choice.optional().describe('The selected or fixed value'),
      range: CapabilityRange.optional(),
    })
    .meta({ id });
}

export const VoicesCapability = capability('VoicesCapability', VoiceObject);
export const TextCapability = capability('TextCapability', z.string());
export const NumberCapability = capability('NumberCapability', z.number());
export type VoicesCapability = z.infer<typeof VoicesCapability>;
export type TextCapability = z.infer<typeof TextCapability>;
export type NumberCapability = z.infer<typeof NumberCapability>;

export const PersonaCapabilities = z
  .strictObject({
    voices: VoicesCapability,
    language: TextCapability.describe('Languages both the synthesis and the recognition model support (ISO 639-1, else ISO 639-3)'),
    accent: TextCapability,
    emotion: TextCapability,
    speed: NumberCapability,
    speechVolume: NumberCapability,
  })
  .meta({ id: 'PersonaCapabilities' });
export type PersonaCapabilities = z.infer<typeof PersonaCapabilities>;

export const GetPersonaCapabilitiesQuery = z.strictObject({
  projectId: Id.optional().describe('Project id or name; a project-scoped key may only name its own'),
  ttsProvider: Id.describe('Speech-synthesis provider, e.g. `openai`, `elevenlabs`, `espeak-ng`'),
  ttsModel: Id.describe('Speech-synthesis model, e.g. `tts-1`'),
  sttProvider: Id.describe('Speech-recognition provider, e.g. `deepgram`'),
  sttModel: Id.describe('Speech-recognition model, e.g. `nova-3`'),
  language: Id.optional().describe('Narrows the voices; any of ISO 639-1, ISO 639-3 or a BCP 47 tag'),
  voiceId: Id.optional().describe('Narrows language and accent to the voice\'s'),
  refresh: QueryBoolean.optional().describe('Re-read the account\'s voices from the provider instead of the cache'),
});
