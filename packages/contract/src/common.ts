import { z } from 'zod';

/** ISO 8601 UTC timestamp with milliseconds, e.g. `2026-11-21T15:04:05.123Z`. */
export const Timestamp = z.string().describe('ISO 8601 UTC timestamp with milliseconds');

/** A timestamp that is null until the event it marks has happened. */
export const NullableTimestamp = Timestamp.nullable();

/** An opaque identifier passed in a path or query; never empty. */
export const Id = z.string().min(1).max(200);

/** Prefixed identifier, e.g. `IdWithPrefix('tst_')`. Accepts only that prefix. */
export function prefixedId(prefix: string) {
  return z
    .string()
    .min(prefix.length + 1)
    .max(200)
    .startsWith(prefix)
    .describe(`Identifier starting with \`${prefix}\``);
}

/**
 * A key of another service that svc sends in an HTTP header (a platform or
 * provider API key): printable ASCII without spaces, surrounding whitespace
 * trimmed. Anything else could never be sent, so it is refused up front.
 */
export const HeaderSecret = z
  .string()
  .trim()
  .min(1)
  .max(4096)
  .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces');

/** `/api` list page size: 1..100, default 50. */
export const Limit = z.coerce.number().int().min(1).max(100).default(50);

/** `/v1` list page size: 1..100, default 50. */
export const PageSize = z.coerce.number().int().min(1).max(100).default(50);

/** Boolean query flag: `true`/`false`/`1`/`0`. */
export const QueryBoolean = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1')
  .describe('`true` or `false`');

/** Query of every `/api` cursor list. */
export const CursorQuery = z.strictObject({
  cursor: Id.optional().describe('The previous page\'s `next_cursor`'),
  limit: Limit.optional(),
});

/** Query of every `/v1` pageToken list. */
export const PageTokenQuery = z.strictObject({
  pageSize: PageSize.optional(),
  pageToken: Id.optional().describe('The previous page\'s `nextPageToken`'),
});

/** `{items, next_cursor}`: the `/api` paginated list envelope. */
export function cursorPage<T extends z.ZodType>(item: T) {
  return z.strictObject({
    items: z.array(item),
    next_cursor: z.string().nullable().describe('Id of the last item; null on the last page'),
  });
}

/** Role of a user in an organization. A key acts with its creator's current role. */
export const Role = z.enum(['admin', 'member', 'viewer']).meta({ id: 'Role' });
export type Role = z.infer<typeof Role>;

/** An empty JSON object body, for operations that take `{}`. */
export const EmptyBody = z.strictObject({});
