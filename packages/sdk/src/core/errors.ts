/** Any failure of an svc API call. `code` is the server's stable error code. */
export class SvcError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly details: Record<string, unknown> | undefined,
    readonly requestId: string | undefined,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400: malformed request or parameters. */
export class BadRequestError extends SvcError {}
/** 401: no key, or an unknown or revoked one. */
export class AuthenticationError extends SvcError {}
/** 403: the credential lacks permission. */
export class PermissionError extends SvcError {}
/** 404: absent or invisible to the credential. */
export class NotFoundError extends SvcError {}
/** 409: name, version or state conflict. */
export class ConflictError extends SvcError {}
/** 413: body too large. */
export class PayloadTooLargeError extends SvcError {}
/** 422: readable but invalid values. */
export class ValidationError extends SvcError {}
/** 429: rate limited; `retryAfter` is in seconds. */
export class RateLimitError extends SvcError {
  constructor(message: string, status: number, code: string, details: Record<string, unknown> | undefined, requestId: string | undefined, readonly retryAfter: number | undefined) {
    super(message, status, code, details, requestId);
  }
}
/** 500: unexpected server failure. */
export class InternalServerError extends SvcError {}
/** 503: the service, a store or a provider is unavailable. */
export class ServiceUnavailableError extends SvcError {}
/** The server could not be reached or the response was unreadable. */
export class ConnectionError extends SvcError {
  constructor(message: string, override readonly cause?: unknown) {
    super(message, 0, 'connection_error', undefined, undefined);
  }
}

/** Seconds from a `Retry-After` header (delta-seconds or HTTP date). */
export function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}

const BY_STATUS: Record<number, typeof SvcError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionError,
  404: NotFoundError,
  409: ConflictError,
  413: PayloadTooLargeError,
  415: BadRequestError,
  422: ValidationError,
  500: InternalServerError,
  503: ServiceUnavailableError,
};

/** The typed error for a refusal. */
export function errorFromResponse(status: number, body: unknown, headers: Headers): SvcError {
  const b = (body && typeof body === 'object' ? body : {}) as { error?: unknown; message?: unknown; details?: unknown };
  const code = typeof b.error === 'string' ? b.error : `http_${status}`;
  const message = typeof b.message === 'string' ? b.message : `HTTP ${status}`;
  const details = b.details && typeof b.details === 'object' ? (b.details as Record<string, unknown>) : undefined;
  const requestId = headers.get('x-request-id') ?? undefined;
  if (status === 429) return new RateLimitError(message, status, code, details, requestId, parseRetryAfter(headers.get('retry-after')));
  const Type = BY_STATUS[status] ?? (status >= 500 ? InternalServerError : SvcError);
  return new Type(message, status, code, details, requestId);
}
