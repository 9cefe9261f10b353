import { defineOperation } from '../operation.js';
import { GetPersonasQuery, GetPersonasResponse, PatchPersonaBody, PersonaIdParams, PersonaObject, PostPersonasBody } from '../resources/personas.js';

const VOICE_REFUSAL =
  'Voice settings are checked against what the chosen speech providers support; a refused combination is 422 `voice_option_unsupported` with `details.refusals: [{field, reason}]`.';

export const createPersona = defineOperation({
  operationId: 'createPersona',
  method: 'post',
  path: '/api/personas',
  tag: 'Personas',
  summary: 'Create a persona',
  description: `Names are unique in the project (409 \`name_taken\`). ${VOICE_REFUSAL}`,
  auth: 'key',
  body: PostPersonasBody,
  status: 201,
  response: PersonaObject,
  errors: { 400: ['project_required'], 404: ['not_found'], 409: ['name_taken'], 422: ['voice_option_unsupported'] },
});

export const listPersonas = defineOperation({
  operationId: 'listPersonas',
  method: 'get',
  path: '/api/personas',
  tag: 'Personas',
  summary: 'List a project\'s personas, newest first',
  description: 'The project default persona (created with the project\'s first persona use) is always among them.',
  auth: 'key',
  query: GetPersonasQuery,
  status: 200,
  response: GetPersonasResponse,
  errors: { 400: ['project_required'], 404: ['not_found'] },
});

export const getPersona = defineOperation({
  operationId: 'getPersona',
  method: 'get',
  path: '/api/personas/{personaId}',
  tag: 'Personas',
  summary: 'One persona',
  auth: 'key',
  params: PersonaIdParams,
  status: 200,
  response: PersonaObject,
  errors: { 404: ['not_found'] },
});

export const updatePersona = defineOperation({
  operationId: 'updatePersona',
  method: 'patch',
  path: '/api/personas/{personaId}',
  tag: 'Personas',
  summary: 'Edit a persona, or make it the project default',
  description: `Voice members not sent keep their values; null clears one. Tests pin the persona ids their versions resolved, so a rename does not change what an existing version means. ${VOICE_REFUSAL}`,
  auth: 'key',
  params: PersonaIdParams,
  body: PatchPersonaBody,
  status: 200,
  response: PersonaObject,
  errors: { 404: ['not_found'], 409: ['name_taken'], 422: ['voice_option_unsupported'], 503: ['unavailable'] },
});

export const personaOperations = [createPersona, listPersonas, getPersona, updatePersona] as const;
