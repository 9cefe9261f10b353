/**
 * The meeting point of personas (test authoring) and the persona-capabilities
 * lookup: a persona's voice settings are checked against what the chosen
 * speech providers support before they are stored.
 */

/** A persona's voice settings, named as the capabilities lookup's query parameters. */
export interface PersonaVoiceSettings {
  ttsProvider?: string | null;
  ttsModel?: string | null;
  sttProvider?: string | null;
  sttModel?: string | null;
  voiceId?: string | null;
  language?: string | null;
  accent?: string | null;
  emotion?: string | null;
  speed?: number | null;
  speechVolume?: number | null;
}

/** One refused setting, with the capability's reason (e.g. "emotion is unsupported by tts-1: ..."). */
export interface PersonaVoiceRefusal {
  field: keyof PersonaVoiceSettings;
  reason: string;
}

/** Checks voice settings for an organization (whose account voices may count). Empty list: acceptable. */
export interface PersonaVoiceValidator {
  validate(organizationId: string, settings: PersonaVoiceSettings): Promise<PersonaVoiceRefusal[]>;
}

/** Accepts every setting; used until the capabilities lookup is wired in. */
export const acceptAnyVoice: PersonaVoiceValidator = { validate: async () => [] };
