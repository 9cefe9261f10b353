import { z } from 'zod';
import { CapabilityStatus, VoiceObject } from '@svc/contract';
import { AppError } from '../http/errors.js';
import raw from './catalog/speech-catalog.json' with { type: 'json' };

/** A numeric control as the catalog records it; `step: null` means the source gives none. */
const CatalogRange = z.object({
  minimum: z.number(),
  maximum: z.number(),
  step: z.number().nullable(),
  unit: z.string(),
  default: z.number().optional(),
});
export type CatalogRange = z.infer<typeof CatalogRange>;

const CatalogNote = z.object({ status: CapabilityStatus, reason: z.string() });
const CatalogOption = z.object({ status: CapabilityStatus, reason: z.string().optional(), choices: z.array(z.string()).nullable().optional() });
export type CatalogOption = z.infer<typeof CatalogOption>;

/** Catalog voices carry extra provider facts (espeak-ng's file, priority); the wire keeps the six fields. */
const CatalogVoice = VoiceObject.strip();

const TtsModel = z.object({
  languages: z.array(z.string()).nullable(),
  voices: z.array(CatalogVoice),
  speed: CatalogRange.nullable(),
  volume: CatalogRange.nullable(),
  speedStatus: CatalogNote.optional(),
  volumeStatus: CatalogNote.optional(),
  emotion: CatalogOption.optional(),
  accent: CatalogOption.optional(),
  sources: z.array(z.string()).min(1),
  notes: z.array(z.string()).optional(),
});
export type TtsModel = z.infer<typeof TtsModel>;

const SttModel = z.object({ languages: z.array(z.string()).nullable(), sources: z.array(z.string()).min(1) });
export type SttModel = z.infer<typeof SttModel>;

const CatalogFile = z.object({
  tts: z.record(z.string(), z.record(z.string(), TtsModel)),
  stt: z.record(z.string(), z.record(z.string(), SttModel)),
});

/**
 * The speech catalog: what each synthesis and recognition model is documented
 * to support, with its sources (`catalog/speech-catalog.json`, notes in
 * `catalog/speech-catalog.md`). Validated once at start; a malformed catalog
 * stops the server rather than answering with guesses.
 */
export class SpeechCatalog {
  private constructor(private readonly data: z.infer<typeof CatalogFile>) {}

  /** The catalog shipped with the server. */
  static load(): SpeechCatalog {
    return SpeechCatalog.from(raw);
  }

  /** A catalog from parsed JSON (tests and tools). */
  static from(json: unknown): SpeechCatalog {
    const parsed = CatalogFile.safeParse(json);
    if (!parsed.success) throw new Error(`the speech catalog is malformed: ${parsed.error.message}`);
    return new SpeechCatalog(parsed.data);
  }

  /** A synthesis model; 404 `unknown_provider` / `unknown_model` when the catalog has none. */
  tts(provider: string, model: string): TtsModel {
    return pick(this.data.tts, 'synthesis', provider, model);
  }

  /** A recognition model; 404 `unknown_provider` / `unknown_model` when the catalog has none. */
  stt(provider: string, model: string): SttModel {
    return pick(this.data.stt, 'recognition', provider, model);
  }

  /** Every provider and model, for listings and benches. */
  models(kind: 'tts' | 'stt'): Array<{ provider: string; model: string }> {
    return Object.entries(this.data[kind]).flatMap(([provider, models]) => Object.keys(models).map((model) => ({ provider, model })));
  }
}

function pick<T>(table: Record<string, Record<string, T>>, kind: 'synthesis' | 'recognition', provider: string, model: string): T {
  const models = Object.hasOwn(table, provider) ? table[provider] : undefined;
  if (!models) {
    throw new AppError('unknown_provider', `"${provider}" is not a speech-${kind} provider of the catalog; known: ${Object.keys(table).join(', ')}.`, { kind, provider });
  }
  const found = Object.hasOwn(models, model) ? models[model] : undefined;
  if (!found) {
    throw new AppError('unknown_model', `"${model}" is not a speech-${kind} model of ${provider}; known: ${Object.keys(models).join(', ')}.`, { kind, provider, model });
  }
  return found;
}
