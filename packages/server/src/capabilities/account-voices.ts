import type { KeyedProvider } from '@svc/contract';
import type { ProviderVoice, VoiceListClient } from './elevenlabs-voices.js';

/** Reads an organization's opened provider key; null when none is stored. */
export type ProviderKeyReader = (organizationId: string, provider: KeyedProvider) => Promise<string | null>;

interface Entry {
  voices: Promise<ProviderVoice[]>;
  fetchedAtMs: number;
}

/**
 * The voices of each organization's provider accounts, cached per
 * organization and provider for `ttlMs`. Concurrent lookups share one
 * provider call; a failed call is not cached; `refresh` re-reads.
 */
export class AccountVoices {
  private readonly cache = new Map<string, Entry>();

  constructor(
    private readonly clients: ReadonlyMap<KeyedProvider, VoiceListClient>,
    private readonly readKey: ProviderKeyReader,
    private readonly ttlMs: number,
  ) {}

  /** Whether svc can read account voices of this provider. */
  supports(provider: string): provider is KeyedProvider {
    return this.clients.has(provider as KeyedProvider);
  }

  /** The account's voices; null when the organization stores no key for the provider. */
  async forOrganization(organizationId: string, provider: KeyedProvider, refresh = false): Promise<ProviderVoice[] | null> {
    const key = `${organizationId}:${provider}`;
    const cached = this.cache.get(key);
    if (cached && !refresh && Date.now() - cached.fetchedAtMs < this.ttlMs) return cached.voices;
    const apiKey = await this.readKey(organizationId, provider);
    if (!apiKey) {
      this.cache.delete(key);
      return null;
    }
    return this.fetch(key, provider, apiKey);
  }

  /** Reads the account's voices with a key not stored yet (to check it), and caches them under the organization. */
  async prime(organizationId: string, provider: KeyedProvider, apiKey: string): Promise<ProviderVoice[]> {
    return this.fetch(`${organizationId}:${provider}`, provider, apiKey);
  }

  /** Forgets an organization's cached voices (its key changed or was removed). */
  invalidate(organizationId: string, provider: KeyedProvider): void {
    this.cache.delete(`${organizationId}:${provider}`);
  }

  private fetch(key: string, provider: KeyedProvider, apiKey: string): Promise<ProviderVoice[]> {
    const voices = this.clients.get(provider)!.list(apiKey);
    const entry: Entry = { voices, fetchedAtMs: Date.now() };
    this.cache.set(key, entry);
    voices.catch(() => {
      if (this.cache.get(key) === entry) this.cache.delete(key);
    });
    return voices;
  }
}
