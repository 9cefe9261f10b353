import assert from 'node:assert/strict';
import { it } from 'node:test';
import { UpstreamError } from '../http-client.js';
import { agentFailure } from './http-chat.js';
import { AgentError } from './types.js';

it('agent failures never quote the connection\'s secret, even when the agent echoes it', () => {
  const secret = 'bearer-abcdef123456';
  assert.throws(
    () => agentFailure(new UpstreamError(`answered 401: {"error":"bad token ${secret}"}`, 401), [secret, undefined]),
    (err: unknown) => err instanceof AgentError && err.code === 'agent_error' && !err.message.includes(secret) && err.message.includes('[redacted]'),
  );
  assert.throws(
    () => agentFailure(new UpstreamError('could not be reached: ECONNREFUSED', 0), [secret]),
    (err: unknown) => err instanceof AgentError && err.code === 'agent_unreachable',
  );
});
