import { z } from 'zod';

/** The body of every refusal: a stable snake_case code, human text, optional free-form details. */
export const ErrorBody = z
  .strictObject({
    error: z.string().describe('Stable snake_case code; match on this, never on `message`.'),
    message: z.string().describe('Human-readable text; may change between releases.'),
    details: z.record(z.string(), z.unknown()).optional().describe('Free-form context, e.g. `issues` for validation failures.'),
  })
  .meta({ id: 'ErrorBody', description: 'Error body returned by every refusal.' });
export type ErrorBody = z.infer<typeof ErrorBody>;

/**
 * Every error code the service emits, with the HTTP status it travels with.
 * Codes are part of the contract: add new ones, never rename.
 */
export const ERROR_CODES = {
  invalid_request: 400,
  project_required: 400,
  invalid_otlp: 400,
  not_authenticated: 401,
  not_permitted: 403,
  not_found: 404,
  unknown_provider: 404,
  unknown_model: 404,
  method_not_allowed: 405,
  name_taken: 409,
  version_conflict: 409,
  not_archived: 409,
  agent_archived: 409,
  replay_in_progress: 409,
  conversation_incomplete: 409,
  idempotency_conflict: 409,
  last_admin: 409,
  email_taken: 409,
  run_finished: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  unknown_persona: 422,
  unknown_voice: 422,
  voice_option_unsupported: 422,
  unknown_test_version: 422,
  unknown_test: 422,
  invalid_platform_key: 422,
  platform_key_missing_permission: 422,
  invalid_provider_key: 422,
  unknown_platform_agent: 422,
  unknown_agent: 422,
  unknown_connection: 422,
  archived_agent: 422,
  archived_connection: 422,
  connection_unsupported: 422,
  too_many_requests: 429,
  internal_error: 500,
  unavailable: 503,
  provider_unavailable: 503,
  llm_not_configured: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** HTTP statuses that carry an error body. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 422 | 429 | 500 | 503;

/** One entry of `details.issues` on a 422 `validation_failed`. */
export const ValidationIssue = z.strictObject({
  path: z.string().describe('Dotted path of the offending field; empty for the whole body.'),
  message: z.string(),
});
export type ValidationIssue = z.infer<typeof ValidationIssue>;
