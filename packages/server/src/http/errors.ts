import { ERROR_CODES, type ErrorCode } from '@svc/contract';

/**
 * The one error type routes and services throw for a refusal. The error
 * middleware turns it into `{error, message, details}` with its status.
 */
export class AppError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_CODES[code];
    this.details = details;
    this.headers = headers;
  }
}

export const notFound = (what = 'resource') => new AppError('not_found', `The ${what} does not exist or is not visible to this credential.`);
export const notPermitted = (why: string) => new AppError('not_permitted', why);
export const nameTaken = (what: string, name: string) => new AppError('name_taken', `A ${what} named "${name}" already exists.`, { name });
