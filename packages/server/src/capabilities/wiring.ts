import type { KeyedProvider } from '@svc/contract';
import { ConfigError } from '../config.js';
import type { Route } from '../http/define-route.js';
import type { ProjectRepository } from '../projects/repository.js';
import { SqliteProviderKeyRepository } from '../provider-keys/repository.js';
import { providerKeyRoutes } from '../provider-keys/routes.js';
import { ProviderKeyService } from '../provider-keys/service.js';
import type { Sealer } from '../shared/sealing.js';
import type { RelationalStore } from '../storage/sqlite/connection.js';
import { AccountVoices } from './account-voices.js';
import { SpeechCatalog } from './catalog.js';
import { ElevenLabsVoiceList, type VoiceListClient } from './elevenlabs-voices.js';
import { EspeakNg } from './espeak.js';
import { CapabilityLookup } from './lookup.js';
import { capabilityRoutes } from './routes.js';
import { CapabilityVoiceValidator } from './voice-validator.js';

/** The environment variables of speech capabilities (the README's configuration table lists them). */
export interface SpeechConfig {
  espeakPath: string;
  elevenLabsUrl: string;
  accountVoicesTtlMs: number;
}

/** Reads `SVC_ESPEAK_NG_PATH`, `SVC_ELEVENLABS_URL` and `SVC_ACCOUNT_VOICES_TTL_SECONDS`. */
export function speechConfig(env: NodeJS.ProcessEnv): SpeechConfig {
  const ttl = env.SVC_ACCOUNT_VOICES_TTL_SECONDS;
  const seconds = ttl === undefined || ttl === '' ? 600 : Number(ttl);
  if (!Number.isInteger(seconds) || seconds < 0) throw new ConfigError(`SVC_ACCOUNT_VOICES_TTL_SECONDS must be an integer >= 0, got "${ttl}"`);
  const url = env.SVC_ELEVENLABS_URL || 'https://api.elevenlabs.io';
  if (!/^https?:\/\//.test(url)) throw new ConfigError(`SVC_ELEVENLABS_URL must be an http(s) URL, got "${url}"`);
  return { espeakPath: env.SVC_ESPEAK_NG_PATH || 'espeak-ng', elevenLabsUrl: url, accountVoicesTtlMs: seconds * 1000 };
}

/** The persona-capabilities lookup, its persona validator and the provider keys it reads, wired together. */
export function openSpeechCapabilities(deps: { env: NodeJS.ProcessEnv; relational: RelationalStore; sealer: Sealer; projects: ProjectRepository }) {
  const config = speechConfig(deps.env);
  const clients = new Map<KeyedProvider, VoiceListClient>([['elevenlabs', new ElevenLabsVoiceList(config.elevenLabsUrl)]]);
  let providerKeys: ProviderKeyService | undefined;
  const accountVoices = new AccountVoices(clients, (organizationId, provider) => providerKeys!.open(organizationId, provider), config.accountVoicesTtlMs);
  providerKeys = new ProviderKeyService(new SqliteProviderKeyRepository(deps.relational), deps.sealer, accountVoices);
  const lookup = new CapabilityLookup(SpeechCatalog.load(), new EspeakNg(config.espeakPath), accountVoices);
  const routes: Route[] = [...capabilityRoutes(lookup, deps.projects), ...providerKeyRoutes(providerKeys)];
  return { lookup, providerKeys, voiceValidator: new CapabilityVoiceValidator(lookup), routes };
}
