import { defineOperation } from '../operation.js';
import {
  DeleteMonitoringParams,
  GetMonitoringResponse,
  MonitoringQuery,
  MonitoringSetup,
  PostDiscoverBody,
  PostDiscoverResponse,
  PutPlatformABody,
  ReplayFailureParams,
  ReplayFailureResponse,
} from '../resources/monitoring.js';

const TAG = 'Monitoring';
const PLATFORM_ERRORS = {
  422: ['invalid_platform_key', 'platform_key_missing_permission'],
  429: ['too_many_requests'],
  503: ['provider_unavailable'],
} as const;

export const listMonitoringSetups = defineOperation({
  operationId: 'listMonitoringSetups',
  method: 'get',
  path: '/api/monitoring',
  tag: TAG,
  summary: 'The project\'s monitoring setups (zero, one or two)',
  description: 'Health, last arrival, and for platform_a each selected agent\'s import state, scan progress and open import failures.',
  auth: 'key',
  query: MonitoringQuery,
  status: 200,
  response: GetMonitoringResponse,
  errors: { 400: ['project_required'], 404: ['not_found'] },
});

export const discoverPlatformAAgents = defineOperation({
  operationId: 'discoverPlatformAAgents',
  method: 'post',
  path: '/api/monitoring/platform_a/discover',
  tag: TAG,
  summary: 'List the voice agents a platform_a key can see',
  description:
    'Reads every page of the platform\'s agents with the key (needs agents_read) and returns the voice agents as `{id, name}` sorted by name. The key is checked, never saved. Writers only.',
  auth: 'key',
  query: MonitoringQuery,
  body: PostDiscoverBody,
  status: 200,
  response: PostDiscoverResponse,
  errors: { 400: ['project_required'], 404: ['not_found'], ...PLATFORM_ERRORS },
});

export const savePlatformAMonitoring = defineOperation({
  operationId: 'savePlatformAMonitoring',
  method: 'put',
  path: '/api/monitoring/platform_a',
  tag: TAG,
  summary: 'Create or replace the platform_a setup: key and selected agents',
  description:
    'The key needs agents_read plus history_read or monitor (422 `platform_key_missing_permission` with `details.missing` otherwise). Each agent id is read from the platform and its current name stored; an id the platform does not know, or a text agent, is 422 `unknown_platform_agent`. The key is sealed at rest and shown only as `api_key_hint`. Saving again replaces the selection and keeps the progress of agents that stay. Polling starts at once: a 30-day backfill, then new conversations.',
  auth: 'key',
  query: MonitoringQuery,
  body: PutPlatformABody,
  status: 200,
  response: MonitoringSetup,
  errors: { 400: ['project_required'], 404: ['not_found'], ...PLATFORM_ERRORS, 422: [...PLATFORM_ERRORS[422], 'unknown_platform_agent'] },
});

export const enablePlatformBMonitoring = defineOperation({
  operationId: 'enablePlatformBMonitoring',
  method: 'put',
  path: '/api/monitoring/platform_b-agents',
  tag: TAG,
  summary: 'Create the platform_b setup record (no body)',
  description:
    'Records that the project monitors platform_b workers (strategy `platform_b_otlp`, no agent rows). It configures no worker: a worker exports spans to POST /v1/traces with `SVC_URL` and a project-scoped `SVC_API_KEY`. Repeating it returns the same record.',
  auth: 'key',
  query: MonitoringQuery,
  status: 200,
  response: MonitoringSetup,
  errors: { 400: ['project_required'], 404: ['not_found'] },
});

export const deleteMonitoringSetup = defineOperation({
  operationId: 'deleteMonitoringSetup',
  method: 'delete',
  path: '/api/monitoring/{platform}',
  tag: TAG,
  summary: 'Remove a setup; stored production conversations are kept',
  description:
    'Deleting `platform_a` stops its polling at once and drops its import state and failures. Deleting `platform_b-agents` removes only the record: a deployed worker keeps exporting until its code or credentials are removed.',
  auth: 'key',
  params: DeleteMonitoringParams,
  query: MonitoringQuery,
  status: 204,
  errors: { 400: ['project_required'], 404: ['not_found'] },
});

export const replayImportFailure = defineOperation({
  operationId: 'replayImportFailure',
  method: 'post',
  path: '/api/monitoring/platform_a/failures/{failureId}/replay',
  tag: TAG,
  summary: 'Re-read one failed call by id and store it',
  description:
    'Claims the failure with a lease (another replay meanwhile: 409 `replay_in_progress`), reads the exact call by id (also outside the 30-day list window) and stores it once. A call the platform cannot supply complete is 409 `conversation_incomplete`; the platform\'s rate limit is 429 with `Retry-After`; its temporary failure 503. Replaying a resolved failure answers `write: already` and never makes a second conversation.',
  auth: 'key',
  params: ReplayFailureParams,
  query: MonitoringQuery,
  status: 200,
  response: ReplayFailureResponse,
  errors: { 400: ['project_required'], 404: ['not_found'], 409: ['replay_in_progress', 'conversation_incomplete'], ...PLATFORM_ERRORS },
});

export const monitoringOperations = [
  listMonitoringSetups,
  discoverPlatformAAgents,
  savePlatformAMonitoring,
  enablePlatformBMonitoring,
  deleteMonitoringSetup,
  replayImportFailure,
] as const;
