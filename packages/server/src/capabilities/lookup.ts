import type { PersonaCapabilities, VoiceObject } from '@svc/contract';
import { AppError } from '../http/errors.js';
import type { AccountVoices } from './account-voices.js';
import type { SpeechCatalog, TtsModel } from './catalog.js';
import { voiceForModel } from './elevenlabs-voices.js';
import type { EspeakNg } from './espeak.js';
import { canonicalLanguage, canonicalLanguages } from './languages.js';
import { type LookupFacts, accentMember, emotionMember, languageMember, rangeMember, voiceLanguages, voicesMember } from './members.js';

/** What a lookup is asked; recognition is optional for callers that check synthesis alone. */
export interface LookupInput {
  ttsProvider: string;
  ttsModel: string;
  sttProvider?: string | undefined;
  sttModel?: string | undefined;
  language?: string | undefined;
  voiceId?: string | undefined;
  refresh?: boolean | undefined;
}

export const ESPEAK_PROVIDER = 'espeak-ng';

const unsupportedOption = (message: string, details: Record<string, unknown>) => new AppError('voice_option_unsupported', message, details);

/**
 * The persona-capabilities lookup: the catalog's facts about a synthesis and a
 * recognition model, the voices of the installed espeak-ng and of the
 * organization's provider account, narrowed by the chosen language and voice.
 */
export class CapabilityLookup {
  constructor(
    private readonly catalog: SpeechCatalog,
    private readonly espeak: EspeakNg,
    private readonly accountVoices: AccountVoices,
  ) {}

  /** Answers the six options; 404 for unknown providers or models, 422 for a voice or language the combination lacks. */
  async lookup(organizationId: string, input: LookupInput): Promise<PersonaCapabilities> {
    const f = await this.facts(organizationId, input);
    return {
      voices: voicesMember(f),
      language: languageMember(f),
      accent: accentMember(f),
      emotion: emotionMember(f),
      speed: rangeMember(f, 'speed'),
      speechVolume: rangeMember(f, 'volume'),
    };
  }

  private async facts(organizationId: string, input: LookupInput): Promise<LookupFacts> {
    const tts = `${input.ttsProvider} ${input.ttsModel}`;
    const model = this.catalog.tts(input.ttsProvider, input.ttsModel);
    const stt = input.sttProvider !== undefined && input.sttModel !== undefined ? this.catalog.stt(input.sttProvider, input.sttModel) : undefined;
    const sttName = stt ? `${input.sttProvider} ${input.sttModel}` : undefined;
    const { voices, reason: voicesReason } = await this.voices(organizationId, input, model);

    const ttsLanguages = input.ttsProvider === ESPEAK_PROVIDER && voices ? canonicalLanguages(voices.flatMap((v) => v.languages)) : model.languages && canonicalLanguages(model.languages);
    const sttLanguages = stt ? stt.languages && canonicalLanguages(stt.languages) : undefined;
    let languages: string[] | null;
    let languagesReason: string;
    if (ttsLanguages === null) {
      languages = null;
      languagesReason = `the catalog does not list the languages of ${tts}`;
    } else if (sttLanguages === null) {
      languages = null;
      languagesReason = `the catalog does not list the languages of ${sttName}`;
    } else if (sttLanguages === undefined) {
      languages = ttsLanguages;
      languagesReason = `languages of ${tts}`;
    } else {
      languages = ttsLanguages.filter((l) => sttLanguages.includes(l));
      languagesReason = `languages both ${tts} and ${sttName} support`;
    }

    const language = input.language === undefined ? undefined : (canonicalLanguage(input.language) ?? input.language);
    if (language !== undefined && languages !== null && !languages.includes(language)) {
      throw unsupportedOption(`language "${input.language}" is not among the ${languagesReason}: ${languages.join(', ') || 'none'}.`, { option: 'language', value: input.language, choices: languages });
    }
    let selectedVoice: VoiceObject | undefined;
    if (input.voiceId !== undefined && voices !== null) {
      selectedVoice = voices.find((v) => v.id === input.voiceId);
      if (!selectedVoice) throw new AppError('unknown_voice', `"${input.voiceId}" is not a voice of ${tts}${input.ttsProvider === ESPEAK_PROVIDER ? '' : ' or of the organization\'s account'}.`, { voiceId: input.voiceId });
      const spoken = voiceLanguages(selectedVoice);
      if (language !== undefined && spoken.length > 0 && !spoken.includes(language)) {
        throw unsupportedOption(`voice ${selectedVoice.id} speaks ${selectedVoice.languages.join(', ')}, not ${language}.`, { option: 'language', value: input.language, voiceId: selectedVoice.id });
      }
    }
    const narrowedVoices = (voices ?? []).filter((v) => language === undefined || v.languages.length === 0 || voiceLanguages(v).includes(language));
    const unchecked = input.voiceId !== undefined && voices === null ? `; voice "${input.voiceId}" cannot be checked` : '';
    return { tts, model, voices, voicesReason: voicesReason && voicesReason + unchecked, narrowedVoices, selectedVoice, languages, languagesReason, language };
  }

  /** The catalog's voices plus the account's, or espeak-ng's installed ones; null with a reason when unknown. */
  private async voices(organizationId: string, input: LookupInput, model: TtsModel): Promise<{ voices: VoiceObject[] | null; reason?: string }> {
    if (input.ttsProvider === ESPEAK_PROVIDER) {
      const installed = await this.espeak.voices(input.refresh ?? false);
      return installed.ok ? { voices: installed.voices } : { voices: null, reason: installed.reason };
    }
    const voices = [...model.voices];
    if (this.accountVoices.supports(input.ttsProvider)) {
      const account = await this.accountVoices.forOrganization(organizationId, input.ttsProvider, input.refresh ?? false);
      const known = new Set(voices.map((v) => v.id));
      const added = (account ?? []).filter((v) => !known.has(v.id)).map((v) => voiceForModel(v, input.ttsModel));
      voices.push(...added.sort((a, b) => a.name.localeCompare(b.name)));
    }
    if (voices.length === 0) {
      const where = this.accountVoices.supports(input.ttsProvider) ? '; store a provider key to add the account\'s voices' : '';
      return { voices: null, reason: `the voices of ${input.ttsProvider} ${input.ttsModel} come from each account's voice list and are not cataloged${where}` };
    }
    return { voices };
  }
}
