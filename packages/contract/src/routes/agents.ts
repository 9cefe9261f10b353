import { EmptyBody } from '../common.js';
import { defineOperation } from '../operation.js';
import {
  AgentIdParams,
  AgentResponse,
  AgentScopeQuery,
  ConnectionIdParams,
  ConnectionResponse,
  GetAgentsQuery,
  GetAgentsResponse,
  GetConnectionsQuery,
  GetConnectionsResponse,
  PostAgentsBody,
  PostConnectionsBody,
  RestoreBody,
} from '../resources/agents.js';

const TAG = 'Agents';
const PROJECT = '`projectId` selects the project (optional with a project-scoped key, which never reaches another project).';
/** Restore and archive bodies are a name at most; larger bodies are refused as 400. */
const SMALL_BODY = 4096;

export const registerAgent = defineOperation({
  operationId: 'registerAgent',
  method: 'post',
  path: '/v1/agents',
  tag: TAG,
  summary: 'Register an agent',
  description: `${PROJECT} A \`monitoringApiKey\` is sealed at rest and shown only as \`monitoringApiKeyHint\`. Names are unique among the project's active agents.`,
  auth: 'key_or_session',
  query: AgentScopeQuery,
  body: PostAgentsBody,
  status: 201,
  response: AgentResponse,
  errors: { 400: ['project_required'], 404: ['not_found'], 409: ['name_taken'] },
});

export const listAgents = defineOperation({
  operationId: 'listAgents',
  method: 'get',
  path: '/v1/agents',
  tag: TAG,
  summary: 'List agents, newest first',
  description: `${PROJECT} Archived agents are listed only with \`includeArchived=true\`.`,
  auth: 'key_or_session',
  query: GetAgentsQuery,
  status: 200,
  response: GetAgentsResponse,
  errors: { 400: ['project_required'], 404: ['not_found'] },
});

export const getAgent = defineOperation({
  operationId: 'getAgent',
  method: 'get',
  path: '/v1/agents/{agentId}',
  tag: TAG,
  summary: 'One agent, archived or not',
  description: `${PROJECT} Without it an org-wide credential finds the agent in any project of the organization.`,
  auth: 'key_or_session',
  params: AgentIdParams,
  query: AgentScopeQuery,
  status: 200,
  response: AgentResponse,
  errors: { 404: ['not_found'] },
});

export const archiveAgent = defineOperation({
  operationId: 'archiveAgent',
  method: 'post',
  path: '/v1/agents/{agentId}/archive',
  tag: TAG,
  summary: 'Archive an agent',
  description: `${PROJECT} The agent leaves lists and frees its name; its connections stay as they are and cannot be created or restored until the agent is restored. Archiving an archived agent returns it unchanged.`,
  auth: 'key_or_session',
  params: AgentIdParams,
  query: AgentScopeQuery,
  body: EmptyBody,
  smallBodyBytes: SMALL_BODY,
  status: 200,
  response: AgentResponse,
  errors: { 404: ['not_found'] },
});

export const restoreAgent = defineOperation({
  operationId: 'restoreAgent',
  method: 'post',
  path: '/v1/agents/{agentId}/restore',
  tag: TAG,
  summary: 'Restore an archived agent',
  description: `${PROJECT} \`name\` renames the agent as it is restored. 409 \`name_taken\` when an active agent holds the name, 409 \`not_archived\` when the agent is active.`,
  auth: 'key_or_session',
  params: AgentIdParams,
  query: AgentScopeQuery,
  body: RestoreBody,
  smallBodyBytes: SMALL_BODY,
  status: 200,
  response: AgentResponse,
  errors: { 404: ['not_found'], 409: ['name_taken', 'not_archived'] },
});

export const createConnection = defineOperation({
  operationId: 'createConnection',
  method: 'post',
  path: '/v1/agents/{agentId}/connections',
  tag: TAG,
  summary: 'Add a connection to an agent',
  description: `${PROJECT} \`credentials\` are sealed at rest and shown only as \`credentialPresent\` and \`credentialsHint\`. \`http_chat\` keeps its endpoint in \`config.url\` (optional non-secret \`config.headers\`) and its secret in \`credentials.bearerToken\`; \`platform_a_chat_api\` keeps \`config.platformAgentId\` and \`credentials.apiKey\`.`,
  auth: 'key_or_session',
  params: AgentIdParams,
  query: AgentScopeQuery,
  body: PostConnectionsBody,
  status: 201,
  response: ConnectionResponse,
  errors: { 404: ['not_found'], 409: ['name_taken', 'agent_archived'] },
});

export const listConnections = defineOperation({
  operationId: 'listConnections',
  method: 'get',
  path: '/v1/agents/{agentId}/connections',
  tag: TAG,
  summary: 'List an agent\'s connections, newest first',
  description: `${PROJECT} Archived connections are listed only with \`includeArchived=true\`.`,
  auth: 'key_or_session',
  params: AgentIdParams,
  query: GetConnectionsQuery,
  status: 200,
  response: GetConnectionsResponse,
  errors: { 404: ['not_found'] },
});

export const getConnection = defineOperation({
  operationId: 'getConnection',
  method: 'get',
  path: '/v1/agents/{agentId}/connections/{connectionId}',
  tag: TAG,
  summary: 'One connection, archived or not',
  description: PROJECT,
  auth: 'key_or_session',
  params: ConnectionIdParams,
  query: AgentScopeQuery,
  status: 200,
  response: ConnectionResponse,
  errors: { 404: ['not_found'] },
});

export const archiveConnection = defineOperation({
  operationId: 'archiveConnection',
  method: 'post',
  path: '/v1/agents/{agentId}/connections/{connectionId}/archive',
  tag: TAG,
  summary: 'Archive a connection',
  description: `${PROJECT} Archiving an archived connection returns it unchanged.`,
  auth: 'key_or_session',
  params: ConnectionIdParams,
  query: AgentScopeQuery,
  body: EmptyBody,
  smallBodyBytes: SMALL_BODY,
  status: 200,
  response: ConnectionResponse,
  errors: { 404: ['not_found'] },
});

export const restoreConnection = defineOperation({
  operationId: 'restoreConnection',
  method: 'post',
  path: '/v1/agents/{agentId}/connections/{connectionId}/restore',
  tag: TAG,
  summary: 'Restore an archived connection',
  description: `${PROJECT} Body \`{}\`, or \`{name}\` to rename as it is restored. 409 \`agent_archived\` while its agent is archived, \`name_taken\` when an active connection of the agent holds the name, \`not_archived\` when the connection is active.`,
  auth: 'key_or_session',
  params: ConnectionIdParams,
  query: AgentScopeQuery,
  body: RestoreBody,
  smallBodyBytes: SMALL_BODY,
  status: 200,
  response: ConnectionResponse,
  errors: { 404: ['not_found'], 409: ['name_taken', 'not_archived', 'agent_archived'] },
});

export const agentOperations = [
  registerAgent,
  listAgents,
  getAgent,
  archiveAgent,
  restoreAgent,
  createConnection,
  listConnections,
  getConnection,
  archiveConnection,
  restoreConnection,
] as const;
