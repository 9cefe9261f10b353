import { type KeyedProvider, type PersonaCapabilities, type ProviderKeyObject, type QueryInputOf, deleteProviderKey, getPersonaCapabilities, listProviderKeys, putProviderKey } from '@svc/contract';
import type { Transport } from '../core/transport.js';

export type PersonaCapabilitiesQuery = NonNullable<QueryInputOf<typeof getPersonaCapabilities>>;

/** Which voice options a speech-synthesis and speech-recognition combination supports. */
export class PersonaCapabilitiesResource {
  constructor(private readonly t: Transport) {}

  /**
   * @example
   * const caps = await svc.personaCapabilities.get({ ttsProvider: 'openai', ttsModel: 'tts-1', sttProvider: 'deepgram', sttModel: 'nova-3' });
   * if (caps.speed.status === 'supported') console.log(caps.speed.range);
   */
  get(query: PersonaCapabilitiesQuery): Promise<PersonaCapabilities> {
    return this.t.request(getPersonaCapabilities, { query });
  }
}

/** The organization's speech-provider keys (org-wide admins). The key goes in once; responses show a hint. */
export class ProviderKeysResource {
  constructor(private readonly t: Transport) {}

  /** Stores or replaces the key after the provider accepted it. */
  set(provider: KeyedProvider, apiKey: string): Promise<ProviderKeyObject> {
    return this.t.request(putProviderKey, { params: { provider }, body: { api_key: apiKey } });
  }

  async list(): Promise<ProviderKeyObject[]> {
    return (await this.t.request(listProviderKeys)).provider_keys;
  }

  async remove(provider: KeyedProvider): Promise<void> {
    await this.t.request(deleteProviderKey, { params: { provider } });
  }
}
