import type { SqliteDb } from './connection.js';
import { AppError } from '../../http/errors.js';

export interface KeysetQuery {
  /** Table with `seq INTEGER PRIMARY KEY` and a unique `id`. */
  table: string;
  /** Tenancy and filter condition over the table, with `?` placeholders. */
  where: string;
  params: readonly unknown[];
  /** Id of the last item of the previous page. */
  afterId?: string | undefined;
  limit: number;
  columns?: string;
}

export interface Page<T> {
  items: T[];
  next: string | null;
}

/**
 * Newest-first keyset pagination on `seq`: a page costs one index range scan
 * whatever its depth, and rows inserted between pages never repeat. The
 * cursor must name a row inside the same scope, else 400 `invalid_request`.
 */
export function keysetPage<Row extends { id: string }, T>(db: SqliteDb, q: KeysetQuery, map: (row: Row) => T): Page<T> {
  let afterSeq = Number.MAX_SAFE_INTEGER;
  if (q.afterId !== undefined) {
    const found = db.prepare(`SELECT seq FROM ${q.table} WHERE id = ? AND (${q.where})`).get(q.afterId, ...q.params) as { seq: number } | undefined;
    if (!found) throw new AppError('invalid_request', 'The cursor does not name an item of this list.', { cursor: q.afterId });
    afterSeq = found.seq;
  }
  const rows = db
    .prepare(`SELECT ${q.columns ?? '*'} FROM ${q.table} WHERE (${q.where}) AND seq < ? ORDER BY seq DESC LIMIT ?`)
    .all(...q.params, afterSeq, q.limit + 1) as Row[];
  const more = rows.length > q.limit;
  const page = more ? rows.slice(0, q.limit) : rows;
  return { items: page.map(map), next: more ? page[page.length - 1]!.id : null };
}

/** True when `err` is SQLite's unique-constraint violation. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
