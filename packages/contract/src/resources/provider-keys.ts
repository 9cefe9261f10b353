import { z } from 'zod';
import { HeaderSecret, Timestamp } from '../common.js';

/** Providers whose account credential svc can keep (for account voices). */
export const KeyedProvider = z.enum(['elevenlabs']).meta({ id: 'KeyedProvider' });
export type KeyedProvider = z.infer<typeof KeyedProvider>;

/** An organization's stored provider credential, as every response shows it (no secret). */
export const ProviderKeyObject = z
  .strictObject({
    provider: KeyedProvider,
    api_key_hint: z.string().describe('Last four characters of the key (`...abcd`)'),
    updated_by_user_id: z.string(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'ProviderKey' });
export type ProviderKeyObject = z.infer<typeof ProviderKeyObject>;

export const ProviderKeyParams = z.strictObject({ provider: KeyedProvider });
export const PutProviderKeyBody = z.strictObject({
  api_key: HeaderSecret.describe('Checked with the provider, then sealed; never returned'),
});
export const GetProviderKeysResponse = z.strictObject({ provider_keys: z.array(ProviderKeyObject) });
