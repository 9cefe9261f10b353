import type { NumberCapability, PersonaCapabilities, TextCapability } from '@svc/contract';
import { AppError } from '../http/errors.js';
import type { PersonaVoiceRefusal, PersonaVoiceSettings, PersonaVoiceValidator } from '../personas/voice-validator.js';
import { canonicalLanguage } from './languages.js';
import type { CapabilityLookup } from './lookup.js';

/** A lookup refusal about the persona's own settings as a refusal of one field; null for anything else (provider failures propagate). */
function settingRefusal(err: AppError): PersonaVoiceRefusal | null {
  const recognition = err.details?.kind === 'recognition';
  switch (err.code) {
    case 'unknown_provider':
      return { field: recognition ? 'sttProvider' : 'ttsProvider', reason: err.message };
    case 'unknown_model':
      return { field: recognition ? 'sttModel' : 'ttsModel', reason: err.message };
    case 'unknown_voice':
      return { field: 'voiceId', reason: err.message };
    case 'voice_option_unsupported':
      return { field: 'language', reason: err.message };
    default:
      return null;
  }
}

const same = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'accent' }) === 0;

function checkText(field: keyof PersonaVoiceSettings, value: string, capability: TextCapability, model: string, compare = same): PersonaVoiceRefusal | null {
  const why = capability.reason ? `: ${capability.reason}` : '';
  if (capability.status === 'unsupported') return { field, reason: `${field} is unsupported by ${model}${why}` };
  if (capability.status === 'fixed' && capability.value !== undefined && !compare(capability.value, value)) {
    return { field, reason: `${field} is fixed to "${capability.value}" for ${model}${why}` };
  }
  if (capability.choices && capability.choices.length > 0 && !capability.choices.some((c) => compare(c, value))) {
    return { field, reason: `${field} "${value}" is not among the choices of ${model} (${capability.choices.join(', ')})${why}` };
  }
  return null;
}

function checkNumber(field: keyof PersonaVoiceSettings, value: number, capability: NumberCapability, model: string): PersonaVoiceRefusal | null {
  const why = capability.reason ? `: ${capability.reason}` : '';
  if (capability.status === 'unsupported') return { field, reason: `${field} is unsupported by ${model}${why}` };
  const range = capability.range;
  if (range && (value < range.minimum || value > range.maximum)) {
    return { field, reason: `${field} ${value} is outside ${range.minimum}..${range.maximum} for ${model}${why}` };
  }
  return null;
}

/**
 * Checks a persona's voice settings against the persona-capabilities lookup:
 * a setting whose option is `unsupported`, or outside its `choices` or
 * `range`, is refused with the capability's reason. `unknown` options are
 * accepted (the catalog cannot tell). Without a synthesis model there is
 * nothing to check against.
 */
export class CapabilityVoiceValidator implements PersonaVoiceValidator {
  constructor(private readonly lookup: CapabilityLookup) {}

  async validate(organizationId: string, s: PersonaVoiceSettings): Promise<PersonaVoiceRefusal[]> {
    if (!s.ttsProvider || !s.ttsModel) return [];
    const model = `${s.ttsProvider} ${s.ttsModel}`;
    let caps: PersonaCapabilities;
    try {
      caps = await this.lookup.lookup(organizationId, {
        ttsProvider: s.ttsProvider,
        ttsModel: s.ttsModel,
        sttProvider: s.sttProvider && s.sttModel ? s.sttProvider : undefined,
        sttModel: s.sttProvider && s.sttModel ? s.sttModel : undefined,
        language: s.language ?? undefined,
        voiceId: s.voiceId ?? undefined,
      });
    } catch (err) {
      const refusal = err instanceof AppError ? settingRefusal(err) : null;
      if (!refusal) throw err;
      return [refusal];
    }
    const refusals = [
      s.language ? checkText('language', s.language, caps.language, model, (a, b) => canonicalLanguage(a) === canonicalLanguage(b)) : null,
      s.accent ? checkText('accent', s.accent, caps.accent, model) : null,
      s.emotion ? checkText('emotion', s.emotion, caps.emotion, model) : null,
      s.speed !== null && s.speed !== undefined ? checkNumber('speed', s.speed, caps.speed, model) : null,
      s.speechVolume !== null && s.speechVolume !== undefined ? checkNumber('speechVolume', s.speechVolume, caps.speechVolume, model) : null,
    ];
    return refusals.filter((r): r is PersonaVoiceRefusal => r !== null);
  }
}
