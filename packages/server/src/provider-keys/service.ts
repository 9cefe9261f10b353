import type { KeyedProvider, ProviderKeyObject } from '@svc/contract';
import type { AccountVoices } from '../capabilities/account-voices.js';
import { notFound } from '../http/errors.js';
import { type Principal, requireAdmin, requireOrgWide } from '../http/principal.js';
import { type Sealer, secretHint } from '../shared/sealing.js';
import { nowIso } from '../shared/ids.js';
import type { ProviderKeyRecord, ProviderKeyRepository } from './repository.js';

/** The sealing context of a provider key: binds the ciphertext to its organization and provider. */
export const providerKeyContext = (organizationId: string, provider: string) => `provider_key:${organizationId}:${provider}`;

/** Refuses anyone but an admin with an org-wide credential (provider keys are organization-wide). */
function requireOrgAdmin(principal: Principal): void {
  requireOrgWide(principal);
  requireAdmin(principal);
}

const toObject = (r: ProviderKeyRecord): ProviderKeyObject => ({
  provider: r.provider,
  api_key_hint: r.apiKeyHint,
  updated_by_user_id: r.updatedByUserId,
  created_at: r.createdAt,
  updated_at: r.updatedAt,
});

/** The organization's speech-provider keys: checked with the provider, sealed, shown as hints. */
export class ProviderKeyService {
  constructor(
    private readonly keys: ProviderKeyRepository,
    private readonly sealer: Sealer,
    private readonly accountVoices: AccountVoices,
  ) {}

  /** Checks the key by reading the account's voices (which warms the cache), then stores it sealed. */
  async put(principal: Principal, provider: KeyedProvider, apiKey: string): Promise<ProviderKeyObject> {
    requireOrgAdmin(principal);
    await this.accountVoices.prime(principal.organizationId, provider, apiKey);
    const at = nowIso();
    const stored = await this.keys.upsert({
      organizationId: principal.organizationId,
      provider,
      apiKeySealed: this.sealer.seal(apiKey, providerKeyContext(principal.organizationId, provider)),
      apiKeyHint: secretHint(apiKey),
      updatedByUserId: principal.userId,
      createdAt: at,
      updatedAt: at,
    });
    return toObject(stored);
  }

  async list(principal: Principal): Promise<ProviderKeyObject[]> {
    requireOrgAdmin(principal);
    return (await this.keys.list(principal.organizationId)).map(toObject);
  }

  async remove(principal: Principal, provider: KeyedProvider): Promise<void> {
    requireOrgAdmin(principal);
    const removed = await this.keys.remove(principal.organizationId, provider);
    this.accountVoices.invalidate(principal.organizationId, provider);
    if (!removed) throw notFound(`${provider} key`);
  }

  /** The opened key, for server-side callers only (never on the wire or in a log). */
  async open(organizationId: string, provider: KeyedProvider): Promise<string | null> {
    const found = await this.keys.find(organizationId, provider);
    return found ? this.sealer.open(found.apiKeySealed, providerKeyContext(organizationId, provider)) : null;
  }
}
