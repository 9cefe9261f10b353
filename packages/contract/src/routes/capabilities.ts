import { defineOperation } from '../operation.js';
import { GetPersonaCapabilitiesQuery, PersonaCapabilities } from '../resources/capabilities.js';

export const getPersonaCapabilities = defineOperation({
  operationId: 'getPersonaCapabilities',
  method: 'get',
  path: '/v1/persona-capabilities',
  tag: 'Persona capabilities',
  summary: 'Which voice options a speech-synthesis and speech-recognition combination supports',
  description: [
    'Driven by a catalog of providers and models with public sources; what it does not know is `unknown` with a reason.',
    'Language choices are those both models support, written ISO 639-1 where a code exists, else ISO 639-3 (ISO 639-3, BCP 47 and provider-specific codes are mapped; `multi` is a mode, not a language).',
    '`language` narrows the voices; `voiceId` narrows language and accent. With a stored provider key the account\'s voices are added (`source: account`), cached per organization; `refresh=true` re-reads them.',
    'espeak-ng voices are read from the installed binary.',
  ].join(' '),
  auth: 'key_or_session',
  query: GetPersonaCapabilitiesQuery,
  status: 200,
  response: PersonaCapabilities,
  errors: {
    404: ['not_found', 'unknown_provider', 'unknown_model'],
    422: ['unknown_voice', 'voice_option_unsupported', 'invalid_provider_key'],
    429: ['too_many_requests'],
    503: ['provider_unavailable'],
  },
});

export const capabilityOperations = [getPersonaCapabilities] as const;
