import { AppError } from '../http/errors.js';
import type { PlatformFailure } from '../platform-a/client.js';

/** The refusal a request answers with when the platform refused a call made on its behalf. */
export function platformRefusal(failure: PlatformFailure): AppError {
  switch (failure.kind) {
    case 'invalid_key':
      return new AppError('invalid_platform_key', 'The platform does not accept this platform_a key.');
    case 'missing_permission': {
      const missing = failure.permission === 'agents_read' ? ['agents_read'] : ['history_read', 'monitor'];
      return missingPermissions(missing);
    }
    case 'rate_limited':
      return new AppError('too_many_requests', `The platform is rate limiting this key; retry after ${failure.retryAfterSecs} s.`, { retry_after_seconds: failure.retryAfterSecs }, { 'Retry-After': String(failure.retryAfterSecs) });
    default:
      return new AppError('provider_unavailable', `platform_a is unavailable: ${failure.message}`);
  }
}

/** 422 naming what the key lacks; `history_read` and `monitor` are listed together because either one will do. */
export function missingPermissions(missing: string[]): AppError {
  const needsHistory = missing.includes('history_read') || missing.includes('monitor');
  const parts = [missing.includes('agents_read') ? 'agents_read' : null, needsHistory ? 'history_read or monitor' : null].filter(Boolean);
  return new AppError(
    'platform_key_missing_permission',
    `The platform_a key lacks ${parts.join(' and ')}; monitoring needs agents_read plus history_read or monitor.`,
    { missing, required: ['agents_read', 'history_read|monitor'] },
  );
}
