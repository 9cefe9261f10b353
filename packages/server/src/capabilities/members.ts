import type { NumberCapability, TextCapability, VoiceObject, VoicesCapability } from '@svc/contract';
import type { CatalogOption, CatalogRange, TtsModel } from './catalog.js';
import { canonicalLanguage } from './languages.js';

/** Granularity svc accepts where a source documents a numeric range but no step. */
export const UNDOCUMENTED_STEP = 0.01;

/** The facts the members are derived from, after the lookup gathered and narrowed them. */
export interface LookupFacts {
  /** `openai tts-1`: how reasons name the synthesis model. */
  tts: string;
  model: TtsModel;
  /** All voices (null when unknown), then those left after `language`. */
  voices: VoiceObject[] | null;
  voicesReason: string | undefined;
  narrowedVoices: VoiceObject[];
  selectedVoice: VoiceObject | undefined;
  /** Languages both models support (null when either side is unknown), and why when unknown. */
  languages: string[] | null;
  languagesReason: string;
  language: string | undefined;
}

/** Canonical languages a voice speaks (empty: follows the model). */
export const voiceLanguages = (voice: VoiceObject): string[] => [...new Set(voice.languages.map((l) => canonicalLanguage(l)).filter((l): l is string => l !== null))];

/** `voices`: the synthesis model's voices narrowed by `language`, with the selected one as `value`. */
export function voicesMember(f: LookupFacts): VoicesCapability {
  if (f.voices === null) return { status: 'unknown', reason: f.voicesReason ?? `the catalog does not list the voices of ${f.tts}` };
  const value = f.selectedVoice ? { value: f.selectedVoice } : {};
  if (f.narrowedVoices.length === 0) {
    return { status: 'unsupported', reason: `no voice of ${f.tts} speaks ${f.language ?? 'any language'}`, choices: [], ...value };
  }
  const reason = f.language ? `voices of ${f.tts} that speak ${f.language} (or follow the model's language)` : `voices of ${f.tts}`;
  return { status: 'supported', reason, choices: f.narrowedVoices, ...value };
}

/** `language`: both models' languages, narrowed to the selected voice's. */
export function languageMember(f: LookupFacts): TextCapability {
  if (f.languages === null) return { status: 'unknown', reason: f.languagesReason, ...(f.language ? { value: f.language } : {}) };
  let choices = f.languages;
  let reason = f.languagesReason;
  const spoken = f.selectedVoice ? voiceLanguages(f.selectedVoice) : [];
  if (f.selectedVoice && spoken.length > 0) {
    choices = choices.filter((l) => spoken.includes(l));
    reason = `voice ${f.selectedVoice.id} speaks ${f.selectedVoice.languages.join(', ')}`;
  }
  if (choices.length === 0) return { status: 'unsupported', reason: `${reason}: no language is left that both models support`, choices: [] };
  if (choices.length === 1) return { status: 'fixed', reason, choices, value: choices[0]! };
  return { status: 'supported', reason, choices, ...(f.language ? { value: f.language } : {}) };
}

function fromCatalogOption(option: CatalogOption): TextCapability {
  return { status: option.status, ...(option.reason ? { reason: option.reason } : {}), ...(option.choices ? { choices: option.choices } : {}) };
}

/** `accent`: the model's own control where it has one, else what its voices are labelled with. */
export function accentMember(f: LookupFacts): TextCapability {
  if (f.model.accent) return fromCatalogOption(f.model.accent);
  if (f.voices === null) return { status: 'unknown', reason: `the accent follows the voice, and ${f.voicesReason ?? `the voices of ${f.tts} are not cataloged`}` };
  if (f.selectedVoice) {
    const accents = f.selectedVoice.accents;
    if (accents.length === 1) return { status: 'fixed', reason: `the accent of voice ${f.selectedVoice.id}`, choices: accents, value: accents[0]! };
    if (accents.length > 1) return { status: 'supported', reason: `accents of voice ${f.selectedVoice.id}`, choices: accents };
    return { status: 'unknown', reason: `${f.tts} has no documented accent control and voice ${f.selectedVoice.id} carries no accent label` };
  }
  const accents = new Map<string, string>();
  for (const voice of f.narrowedVoices) for (const accent of voice.accents) if (!accents.has(accent.toLowerCase())) accents.set(accent.toLowerCase(), accent);
  if (accents.size === 0) return { status: 'unknown', reason: `${f.tts} has no documented accent control and its voices carry no accent labels` };
  return {
    status: 'supported',
    reason: `${f.tts} has no accent control of its own: the accent follows the voice, so choose a voice with the accent`,
    choices: [...accents.values()].sort((a, b) => a.localeCompare(b)),
  };
}

/** `emotion`: as the catalog records it for the synthesis model. */
export function emotionMember(f: LookupFacts): TextCapability {
  return f.model.emotion ? fromCatalogOption(f.model.emotion) : { status: 'unknown', reason: `the catalog records nothing about emotion for ${f.tts}` };
}

/** `speed` and `speechVolume`: the documented range, or the recorded reason there is none. */
export function rangeMember(f: LookupFacts, which: 'speed' | 'volume'): NumberCapability {
  const range: CatalogRange | null = f.model[which];
  const note = which === 'speed' ? f.model.speedStatus : f.model.volumeStatus;
  if (!range) {
    if (note) return { status: note.status, reason: note.reason };
    return { status: 'unsupported', reason: `${f.tts} documents no ${which} control` };
  }
  const parts = [range.unit];
  if (range.default !== undefined) parts.push(`default ${range.default}`);
  if (range.step === null) parts.push(`the source documents no step; svc accepts steps of ${UNDOCUMENTED_STEP}`);
  return { status: 'supported', reason: parts.join('; '), range: { minimum: range.minimum, maximum: range.maximum, step: range.step ?? UNDOCUMENTED_STEP } };
}
