import { z } from 'zod';
import { NullableTimestamp, Timestamp } from '../common.js';

/** An API key record as every response after creation shows it (no secret). */
export const ApiKeyObject = z
  .strictObject({
    id: z.string().describe('Stable key id (`key_...`); used to revoke'),
    name: z.string().nullable().describe('Label; null when omitted'),
    scope: z.enum(['project', 'organization']),
    organization_id: z.string(),
    project_id: z.string().nullable().describe('Null for an org-wide key'),
    looks_like: z.string().describe('Prefix, an ellipsis, then the last four characters of the secret'),
    created_by_user_id: z.string(),
    created_at: Timestamp,
    last_used_at: NullableTimestamp.describe('Most recent successful use; null if never used'),
    revoked_at: NullableTimestamp.describe('Null while active'),
  })
  .meta({ id: 'ApiKey' });
export type ApiKeyObject = z.infer<typeof ApiKeyObject>;

/** The creation response: the key record plus its secret, shown this once. */
export const CreatedApiKeyObject = ApiKeyObject.extend({
  secret: z
    .string()
    .regex(/^svc_sk_[A-Za-z0-9_-]{43}$/)
    .describe('`svc_sk_` + 43 base64url characters; returned only here, never again'),
}).meta({ id: 'CreatedApiKey' });
export type CreatedApiKeyObject = z.infer<typeof CreatedApiKeyObject>;

export const PostKeysBody = z.strictObject({
  name: z.string().min(1).max(200).optional(),
  project_id: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('Project id (or name) for a project-scoped key; omit for an org-wide key. A project key must name its own project.'),
});
export type PostKeysBody = z.infer<typeof PostKeysBody>;

export const GetKeysResponse = z.strictObject({ keys: z.array(ApiKeyObject) });

export const KeyIdParams = z.strictObject({ apiKeyId: z.string().min(1).max(200) });
