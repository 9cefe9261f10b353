import type { OpenedConnection } from '../../agents/connection-service.js';
import type { RunsConfig } from '../config.js';
import { HttpChatSession } from './http-chat.js';
import { PlatformAChatSession } from './platform-a-chat.js';
import { AgentError, type AgentSession } from './types.js';

export * from './types.js';

/** The connection types a run can drive. */
export const RUNNABLE_CONNECTION_TYPES = ['http_chat', 'platform_a_chat_api'] as const;

const headersOf = (config: Record<string, unknown>): Record<string, string> =>
  config.headers && typeof config.headers === 'object' ? Object.fromEntries(Object.entries(config.headers as Record<string, unknown>).map(([k, v]) => [k, String(v)])) : {};

/**
 * Opens a conversation with the agent behind a connection. The credentials
 * go into request headers only; they are never logged or stored with a run.
 */
export function openSession(opened: OpenedConnection, conversationId: string, mockedTools: readonly string[], config: RunsConfig): AgentSession {
  const { connection, credentials } = opened;
  switch (connection.connectionType) {
    case 'http_chat':
      return new HttpChatSession(
        { url: String(connection.config.url), headers: headersOf(connection.config), bearerToken: credentials.bearerToken, timeoutMs: config.agentTimeoutMs },
        conversationId,
        mockedTools,
      );
    case 'platform_a_chat_api':
      return new PlatformAChatSession({
        baseUrl: config.platformAUrl,
        apiKey: credentials.apiKey ?? '',
        platformAgentId: String(connection.config.platformAgentId),
        timeoutMs: config.agentTimeoutMs,
      });
    default:
      throw new AgentError('agent_protocol', `svc cannot drive ${connection.connectionType} connections.`);
  }
}
