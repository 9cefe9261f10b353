import type { PersonaVoice, PersonaVoiceInput, VoiceRefusal } from '@svc/contract';
import type { PersonaVoiceRefusal, PersonaVoiceSettings } from './voice-validator.js';

/** The one mapping between the wire's snake_case voice members and the validator's camelCase settings. */
export const VOICE_FIELDS = {
  tts_provider: 'ttsProvider',
  tts_model: 'ttsModel',
  stt_provider: 'sttProvider',
  stt_model: 'sttModel',
  voice_id: 'voiceId',
  language: 'language',
  accent: 'accent',
  emotion: 'emotion',
  speed: 'speed',
  speech_volume: 'speechVolume',
} as const satisfies Record<keyof PersonaVoice, keyof PersonaVoiceSettings>;

type WireField = keyof typeof VOICE_FIELDS;
const WIRE_FIELDS = Object.keys(VOICE_FIELDS) as WireField[];
const WIRE_BY_SETTING = Object.fromEntries(WIRE_FIELDS.map((w) => [VOICE_FIELDS[w], w])) as Record<keyof PersonaVoiceSettings, WireField>;

/** Every setting present, unset ones null: what a persona stores. */
export type FullVoiceSettings = { [K in keyof PersonaVoiceSettings]-?: Exclude<PersonaVoiceSettings[K], undefined> };

/** No setting chosen. */
export function emptyVoice(): FullVoiceSettings {
  return Object.fromEntries(WIRE_FIELDS.map((w) => [VOICE_FIELDS[w], null])) as FullVoiceSettings;
}

/** Applies a wire voice input to settings: members sent replace, null clears, members not sent stay. */
export function applyVoiceInput(base: FullVoiceSettings, input: PersonaVoiceInput | undefined): FullVoiceSettings {
  const out = { ...base } as Record<string, unknown>;
  for (const wire of WIRE_FIELDS) {
    const value = input?.[wire];
    if (value !== undefined) out[VOICE_FIELDS[wire]] = value;
  }
  return out as FullVoiceSettings;
}

/** Settings as the wire shows them. */
export function toWireVoice(settings: FullVoiceSettings): PersonaVoice {
  return Object.fromEntries(WIRE_FIELDS.map((w) => [w, settings[VOICE_FIELDS[w]]])) as PersonaVoice;
}

/** A validator's refusals with the wire's field names, for `details.refusals`. */
export function toWireRefusals(refusals: readonly PersonaVoiceRefusal[]): VoiceRefusal[] {
  return refusals.map((r) => ({ field: WIRE_BY_SETTING[r.field] ?? String(r.field), reason: r.reason }));
}
