import { z } from 'zod';
import type { VoiceObject } from '@svc/contract';
import { AppError } from '../http/errors.js';
import { canonicalTag } from './languages.js';

/** A voice of a provider account, before it is projected onto one model. */
export interface ProviderVoice {
  id: string;
  name: string;
  source: VoiceObject['source'];
  presentation: VoiceObject['presentation'];
  accents: string[];
  /** Verified languages; `modelId` null when the provider does not tie one to a model. */
  languages: Array<{ tag: string; modelId: string | null; accent: string | null }>;
}

/** Reads the voices of a provider account with its API key. */
export interface VoiceListClient {
  list(apiKey: string): Promise<ProviderVoice[]>;
}

const VoicesResponse = z.object({
  voices: z.array(
    z.object({
      voice_id: z.string().min(1),
      name: z.string().nullish(),
      category: z.string().nullish(),
      labels: z.record(z.string(), z.unknown()).nullish(),
      verified_languages: z
        .array(z.object({ language: z.string(), model_id: z.string().nullish(), accent: z.string().nullish(), locale: z.string().nullish() }))
        .nullish(),
    }),
  ),
});

const PRESENTATIONS = new Set(['male', 'female', 'neutral']);

/** Whole seconds from a `Retry-After` header (delta-seconds or HTTP date), at least 1. */
export function retryAfterSeconds(header: string | null, fallback: number): number {
  if (!header) return fallback;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(1, Math.ceil(seconds));
  const date = Date.parse(header);
  return Number.isNaN(date) ? fallback : Math.max(1, Math.ceil((date - Date.now()) / 1000));
}

function toProviderVoice(v: z.infer<typeof VoicesResponse>['voices'][number]): ProviderVoice {
  const gender = typeof v.labels?.gender === 'string' ? v.labels.gender.toLowerCase() : '';
  const accent = typeof v.labels?.accent === 'string' && v.labels.accent ? v.labels.accent : null;
  const languages: ProviderVoice['languages'] = [];
  for (const entry of v.verified_languages ?? []) {
    const tag = canonicalTag(entry.locale ?? entry.language);
    if (tag) languages.push({ tag, modelId: entry.model_id ?? null, accent: entry.accent ?? null });
  }
  return {
    id: v.voice_id,
    name: v.name ?? v.voice_id,
    source: v.category === 'premade' ? 'standard' : 'account',
    presentation: PRESENTATIONS.has(gender) ? (gender as VoiceObject['presentation']) : 'unknown',
    accents: accent ? [accent] : [],
    languages,
  };
}

/**
 * ElevenLabs' voice list (`GET {base}/v1/voices` with `xi-api-key`). Refusals
 * of the key are 422 `invalid_provider_key`; the provider's 429 passes through
 * with its `Retry-After`; anything else unusable is 503 `provider_unavailable`.
 */
export class ElevenLabsVoiceList implements VoiceListClient {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs = 10_000,
  ) {}

  async list(apiKey: string): Promise<ProviderVoice[]> {
    const url = `${this.baseUrl.replace(/\/+$/, '')}/v1/voices`;
    let response: Response;
    try {
      response = await fetch(url, { headers: { 'xi-api-key': apiKey, accept: 'application/json' }, signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (err) {
      throw new AppError('provider_unavailable', `elevenlabs could not be reached: ${(err as Error).message}`, { provider: 'elevenlabs' });
    }
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel();
      throw new AppError('invalid_provider_key', `elevenlabs refused the API key (HTTP ${response.status}); store a valid one with PUT /api/provider-keys/elevenlabs.`, {
        provider: 'elevenlabs',
        provider_status: response.status,
      });
    }
    if (response.status === 429) {
      await response.body?.cancel();
      const wait = retryAfterSeconds(response.headers.get('retry-after'), 1);
      throw new AppError('too_many_requests', `elevenlabs is rate limiting this account; retry after ${wait} s.`, { provider: 'elevenlabs', retry_after_seconds: wait }, { 'Retry-After': String(wait) });
    }
    if (!response.ok) {
      await response.body?.cancel();
      const retry = response.headers.get('retry-after');
      throw new AppError(
        'provider_unavailable',
        `elevenlabs answered HTTP ${response.status} to the voice list; try again later.`,
        { provider: 'elevenlabs', provider_status: response.status },
        retry ? { 'Retry-After': String(retryAfterSeconds(retry, 1)) } : {},
      );
    }
    const parsed = VoicesResponse.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success) throw new AppError('provider_unavailable', 'elevenlabs answered the voice list with an unreadable body.', { provider: 'elevenlabs' });
    return parsed.data.voices.map(toProviderVoice);
  }
}

/** The voice as the lookup shows it for one model: languages verified for that model (or for none in particular). */
export function voiceForModel(voice: ProviderVoice, model: string): VoiceObject {
  const entries = voice.languages.filter((l) => l.modelId === null || l.modelId === model);
  const accents = new Map<string, string>();
  for (const accent of [...voice.accents, ...entries.map((e) => e.accent)]) if (accent) accents.set(accent.toLowerCase(), accent);
  return {
    id: voice.id,
    name: voice.name,
    source: voice.source,
    presentation: voice.presentation,
    languages: [...new Set(entries.map((e) => e.tag))],
    accents: [...accents.values()],
  };
}
