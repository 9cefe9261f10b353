import type { PlatformAClient, PlatformFailure } from '../platform-a/client.js';
import { type ImportTarget, judgeConversation } from '../platform-a/map.js';
import type { ConversationInput } from '../conversations/repository.js';
import type { HealthNote } from './model.js';

/** One read of an exact call, judged. `platform` means the platform refused the call as a whole (key, rate limit, outage). */
export type CallRead =
  | { kind: 'complete'; input: ConversationInput; startUnix: number }
  | { kind: 'incomplete'; status: string; reason: string }
  | { kind: 'invalid'; reason: string }
  | { kind: 'not_found'; reason: string }
  | { kind: 'unavailable'; failure: PlatformFailure; reason: string }
  | { kind: 'platform'; failure: PlatformFailure };

/** Reads one conversation by id (any age) and judges it. */
export async function readCall(client: PlatformAClient, apiKey: string, conversationId: string, target: ImportTarget, signal?: AbortSignal): Promise<CallRead> {
  const answer = await client.getConversation(apiKey, conversationId, signal);
  if (!answer.ok) {
    if (answer.kind === 'not_found') return { kind: 'not_found', reason: 'not_found: the platform has no conversation with this id' };
    if (answer.kind === 'bad_response') return { kind: 'invalid', reason: `invalid_data: ${answer.message}` };
    if (answer.kind === 'unavailable') return { kind: 'unavailable', failure: answer, reason: `fetch_failed: ${answer.message}` };
    return { kind: 'platform', failure: answer };
  }
  const judged = judgeConversation(answer.value, target);
  if (judged.kind === 'complete') return { kind: 'complete', input: judged.input, startUnix: Math.floor(answer.value.start_time_unix) };
  return judged;
}

/** The health state that follows a platform answer: none (success) is healthy. */
export function healthAfter(failure: PlatformFailure | null, now: Date = new Date()): HealthNote {
  const at = now.toISOString();
  if (!failure) return { state: 'healthy', message: 'The platform answered normally.', at };
  switch (failure.kind) {
    case 'invalid_key':
      return { state: 'invalid_credential', message: 'The platform refuses the stored key (401); save the setup with a valid key.', at };
    case 'missing_permission':
      return { state: 'invalid_credential', message: `The stored key lacks a permission${failure.permission ? ` (${failure.permission})` : ''} (403).`, at };
    case 'rate_limited':
      return {
        state: 'rate_limited',
        message: `The platform is rate limiting the key; the next call waits ${failure.retryAfterSecs} s.`,
        at,
        notBefore: new Date(now.getTime() + failure.retryAfterSecs * 1000).toISOString(),
      };
    case 'not_found':
      return { state: 'healthy', message: 'The platform answered normally.', at };
    default:
      return { state: 'provider_unavailable', message: failure.message, at };
  }
}
