import { EmptyBody } from '../common.js';
import { defineOperation } from '../operation.js';
import { GetRunEventsQuery, GetRunEventsResponse, GetRunsQuery, GetRunsResponse, PostRunsBody, PostRunsHeaders, RunIdParams, RunObject } from '../resources/runs.js';

const TAG = 'Runs';

export const createRun = defineOperation({
  operationId: 'createRun',
  method: 'post',
  path: '/api/runs',
  tag: TAG,
  summary: 'Run pinned test versions against an agent',
  description: [
    'Expands into calls: each version × each persona it resolved when it was minted × `repeat`, queued and executed in the background with bounded concurrency per organization.',
    'Every accepted request makes a new run; with an `Idempotency-Key` header the same key and body return the same run (201, header `Idempotent-Replayed: true`) and another body is 409 `idempotency_conflict`.',
    'Version ids unknown to the project: 422 `unknown_test_version` (`details.unknown`). An unknown or archived agent or connection: 422 `unknown_agent`, `unknown_connection`, `archived_agent`, `archived_connection`; a connection type svc cannot drive (only `http_chat` and `platform_a_chat_api` run): 422 `connection_unsupported`.',
    'Without a language model (`SVC_LLM_BASE_URL`, `SVC_LLM_MODEL`): 503 `llm_not_configured`.',
  ].join(' '),
  auth: 'key',
  headers: PostRunsHeaders,
  body: PostRunsBody,
  status: 201,
  response: RunObject,
  successHeaders: { 'Idempotent-Replayed': { description: '`true` when an earlier request with the same `Idempotency-Key` made this run', schema: { type: 'string' } } },
  errors: {
    400: ['project_required'],
    404: ['not_found'],
    409: ['idempotency_conflict'],
    422: ['unknown_test_version', 'unknown_agent', 'unknown_connection', 'archived_agent', 'archived_connection', 'connection_unsupported'],
    503: ['llm_not_configured'],
  },
});

export const listRuns = defineOperation({
  operationId: 'listRuns',
  method: 'get',
  path: '/api/runs',
  tag: TAG,
  summary: 'List a project\'s runs, newest first (without per-call results)',
  auth: 'key',
  query: GetRunsQuery,
  status: 200,
  response: GetRunsResponse,
  errors: { 400: ['project_required'], 404: ['not_found'] },
});

export const getRun = defineOperation({
  operationId: 'getRun',
  method: 'get',
  path: '/api/runs/{runId}',
  tag: TAG,
  summary: 'One run with every call\'s transcript, tool calls, graded behaviors and metrics',
  description: 'Each result names its pinned version and whether a later edit has superseded it.',
  auth: 'key',
  params: RunIdParams,
  status: 200,
  response: RunObject,
  errors: { 404: ['not_found'] },
});

export const cancelRun = defineOperation({
  operationId: 'cancelRun',
  method: 'post',
  path: '/api/runs/{runId}/cancel',
  tag: TAG,
  summary: 'Cancel a queued or running run',
  description:
    'Queued calls never start; running calls are stopped and marked `canceled`; `run.canceled` is the last event. Canceling a canceled run returns it unchanged; a run that already finished is 409 `run_finished`.',
  auth: 'key',
  params: RunIdParams,
  body: EmptyBody,
  smallBodyBytes: 1024,
  status: 200,
  response: RunObject,
  errors: { 404: ['not_found'], 409: ['run_finished'] },
});

export const listRunEvents = defineOperation({
  operationId: 'listRunEvents',
  method: 'get',
  path: '/api/runs/{runId}/events',
  tag: TAG,
  summary: 'Read a run\'s events in order, optionally long-polling',
  description: [
    'Events carry `seq` 1, 2, 3... with no gaps. Pass the returned `next` as `after` to read on; `caughtUp: true` means every event so far was read; poll until `done: true`.',
    '`wait` (seconds, at most 30) holds the request while nothing follows `after` and returns as soon as an event arrives.',
    'Types: `run.queued`, `run.started`, `call.started`, `turn`, `tool_call`, `grade`, `call.finished` (after its grades), and last `run.finished` or `run.canceled`.',
  ].join(' '),
  auth: 'key',
  params: RunIdParams,
  query: GetRunEventsQuery,
  status: 200,
  response: GetRunEventsResponse,
  errors: { 404: ['not_found'] },
});

export const runOperations = [createRun, listRuns, getRun, cancelRun, listRunEvents] as const;
