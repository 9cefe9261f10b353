import { defineOperation } from '../operation.js';
import { GetProviderKeysResponse, ProviderKeyObject, ProviderKeyParams, PutProviderKeyBody } from '../resources/provider-keys.js';

const TAG = 'Provider keys';

export const putProviderKey = defineOperation({
  operationId: 'putProviderKey',
  method: 'put',
  path: '/api/provider-keys/{provider}',
  tag: TAG,
  summary: 'Store or replace the organization\'s key for a speech provider (admins)',
  description:
    'Org-wide admin credentials only. The key is checked with the provider (its voice list), then sealed at rest; responses show only `api_key_hint`. The persona-capabilities lookup then adds the account\'s voices.',
  auth: 'key',
  params: ProviderKeyParams,
  body: PutProviderKeyBody,
  status: 200,
  response: ProviderKeyObject,
  errors: { 422: ['invalid_provider_key'], 429: ['too_many_requests'], 503: ['provider_unavailable'] },
});

export const listProviderKeys = defineOperation({
  operationId: 'listProviderKeys',
  method: 'get',
  path: '/api/provider-keys',
  tag: TAG,
  summary: 'List the organization\'s provider keys, hints only (admins)',
  auth: 'key',
  status: 200,
  response: GetProviderKeysResponse,
});

export const deleteProviderKey = defineOperation({
  operationId: 'deleteProviderKey',
  method: 'delete',
  path: '/api/provider-keys/{provider}',
  tag: TAG,
  summary: 'Remove the organization\'s key for a provider (admins)',
  description: 'The account\'s voices leave the lookup at once.',
  auth: 'key',
  params: ProviderKeyParams,
  status: 204,
  errors: { 404: ['not_found'] },
});

export const providerKeyOperations = [putProviderKey, listProviderKeys, deleteProviderKey] as const;
