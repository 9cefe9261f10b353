import { z } from 'zod';
import { Id, NullableTimestamp, PageTokenQuery, QueryBoolean, Timestamp } from '../common.js';

/** The platform an agent runs on. `custom` is any agent svc reaches by a connection alone. */
export const AgentPlatform = z.enum(['platform_a', 'platform_b_agents', 'custom']).meta({ id: 'AgentPlatform' });
export type AgentPlatform = z.infer<typeof AgentPlatform>;

/** How svc reaches an agent. */
export const ConnectionType = z.enum(['platform_a_chat_api', 'http_chat', 'websocket', 'sip', 'phone']).meta({ id: 'ConnectionType' });
export type ConnectionType = z.infer<typeof ConnectionType>;

/**
 * `<connectionType>.<credential>`: which secret a connection carries.
 * `api_key` needs `credentials.apiKey`, `bearer_token` needs `credentials.bearerToken`,
 * `digest` needs `credentials.username` and `credentials.password`, `none` takes no credentials.
 */
export const AccessVariant = z
  .enum([
    'platform_a_chat_api.api_key',
    'http_chat.bearer_token',
    'http_chat.none',
    'websocket.bearer_token',
    'websocket.none',
    'sip.digest',
    'sip.none',
    'phone.none',
  ])
  .meta({ id: 'AccessVariant' });
export type AccessVariant = z.infer<typeof AccessVariant>;

export const Modality = z.enum(['voice', 'text']).meta({ id: 'Modality' });
export type Modality = z.infer<typeof Modality>;

/** Who places the call: the agent dials svc, or svc dials (or requests) the agent. */
export const Topology = z.enum(['agent-dials-out', 'svc-dials-in']).meta({ id: 'Topology' });
export type Topology = z.infer<typeof Topology>;

export const Environment = z.enum(['production', 'staging', 'development']).meta({ id: 'Environment' });
export type Environment = z.infer<typeof Environment>;

/** Agent and connection names: unique among the active ones of their scope. */
export const ResourceName = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[^\u0000-\u001f]+$/, 'must not contain control characters');

/** A secret as sent once by a client; stored sealed, never returned. */
export const SecretValue = z.string().min(1).max(4096);

export const AgentObject = z
  .strictObject({
    id: z.string().describe('`agt_...`'),
    projectId: z.string(),
    name: z.string().describe('Unique among the project\'s active agents'),
    agentPlatform: AgentPlatform,
    platformAgentId: z.string().describe('The agent\'s id on its platform; empty when it has none'),
    platformAModality: Modality.describe('For `platform_a` agents: voice or text; `voice` for other platforms'),
    monitoringKeyPresent: z.boolean().describe('Whether a monitoring API key is stored (sealed)'),
    monitoringApiKeyHint: z.string().describe('Last four characters of the stored monitoring key (`...abcd`); empty when none'),
    pullProductionCalls: z.boolean().describe('Whether production monitoring imports this agent\'s calls'),
    monitoringConfigured: z.boolean().describe('Whether a monitoring setup of the project covers this agent'),
    lastReceivedAt: NullableTimestamp.describe('Arrival of the latest production conversation; null before the first'),
    archived: z.boolean(),
    archivedAt: NullableTimestamp.describe('Null while active'),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Agent' });
export type AgentObject = z.infer<typeof AgentObject>;

export const ConnectionObject = z
  .strictObject({
    id: z.string().describe('`con_...`'),
    agentId: z.string(),
    projectId: z.string(),
    name: z.string().describe('Unique among the agent\'s active connections'),
    agentPlatform: AgentPlatform.describe('The agent\'s platform'),
    connectionType: ConnectionType,
    accessVariant: AccessVariant,
    modality: Modality,
    productLabel: z.string().describe('Human label of the product reached'),
    topology: Topology,
    environment: Environment,
    config: z.record(z.string(), z.unknown()).describe('Free-form, non-secret settings (e.g. `url`, `headers`, `platformAgentId`)'),
    credentialPresent: z.boolean().describe('Whether sealed credentials are stored'),
    credentialsHint: z.string().describe('Names and last four characters of the stored secrets (`bearerToken ...abcd`); empty when none'),
    archived: z.boolean(),
    archivedAt: NullableTimestamp.describe('Null while active'),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'AgentConnection' });
export type ConnectionObject = z.infer<typeof ConnectionObject>;

const ProjectIdQuery = Id.optional().describe('Project id or name; optional with a project-scoped key');

export const AgentScopeQuery = z.strictObject({ projectId: ProjectIdQuery });
export const GetAgentsQuery = PageTokenQuery.extend({
  projectId: ProjectIdQuery,
  includeArchived: QueryBoolean.optional().describe('Also list archived agents (default false)'),
});
export const GetConnectionsQuery = GetAgentsQuery.extend({
  includeArchived: QueryBoolean.optional().describe('Also list archived connections (default false)'),
});
export const AgentIdParams = z.strictObject({ agentId: Id.describe('`agt_...`') });
export const ConnectionIdParams = z.strictObject({ agentId: Id.describe('`agt_...`'), connectionId: Id.describe('`con_...`') });

export const PostAgentsBody = z.strictObject({
  name: ResourceName,
  agentPlatform: AgentPlatform,
  platformAgentId: z.string().trim().min(1).max(200).optional().describe('Required for `platform_a` agents'),
  platformAModality: Modality.optional().describe('Default `voice`'),
  monitoringApiKey: SecretValue.optional().describe('Sealed at rest; responses show only `monitoringApiKeyHint`'),
});
export type PostAgentsBody = z.infer<typeof PostAgentsBody>;

export const RestoreBody = z.strictObject({
  name: ResourceName.optional().describe('Restore under this name instead of the archived one'),
});

export const PostConnectionsBody = z.strictObject({
  name: ResourceName,
  connectionType: ConnectionType,
  accessVariant: AccessVariant.optional().describe('Default: `<connectionType>.bearer_token` when a bearer token is sent, the type\'s only or `none` variant otherwise'),
  modality: Modality.optional().describe('Default `text` for `http_chat`, else `voice`'),
  productLabel: z.string().trim().min(1).max(200).optional().describe('Default: a label of the connection type'),
  topology: Topology.optional().describe('Default `svc-dials-in`'),
  environment: Environment.optional().describe('Default `production`'),
  config: z.record(z.string(), z.unknown()).optional().describe('Non-secret settings; `http_chat`/`websocket` need `url`, `platform_a_chat_api` needs `platformAgentId`'),
  credentials: z
    .record(z.string().min(1).max(100), SecretValue)
    .optional()
    .describe('Secrets (`bearerToken`, `apiKey`, `username`/`password`); sealed at rest, never returned'),
});
export type PostConnectionsBody = z.infer<typeof PostConnectionsBody>;

export const AgentResponse = z.strictObject({ agent: AgentObject });
export const GetAgentsResponse = z.strictObject({ agents: z.array(AgentObject), nextPageToken: z.string().nullable() });
export const ConnectionResponse = z.strictObject({ connection: ConnectionObject });
export const GetConnectionsResponse = z.strictObject({ connections: z.array(ConnectionObject), nextPageToken: z.string().nullable() });
