import { z } from 'zod';
import { HeaderSecret, Id, NullableTimestamp, Timestamp } from '../common.js';

/** The agent platforms a project can monitor; one setup per platform per project. */
export const MonitoringPlatform = z.enum(['platform_a', 'platform_b_agents']).meta({ id: 'MonitoringPlatform' });
export type MonitoringPlatform = z.infer<typeof MonitoringPlatform>;

/** How production calls reach svc: polled from platform_a, or exported as OTLP spans by platform_b workers. */
export const MonitoringStrategy = z.enum(['platform_a_poll', 'platform_b_otlp']).meta({ id: 'MonitoringStrategy' });
export type MonitoringStrategy = z.infer<typeof MonitoringStrategy>;

/** The last answer of the platform, as a state. */
export const MonitoringHealthState = z.enum(['healthy', 'invalid_credential', 'rate_limited', 'provider_unavailable']).meta({ id: 'MonitoringHealthState' });
export type MonitoringHealthState = z.infer<typeof MonitoringHealthState>;

export const MonitoringHealth = z
  .strictObject({
    state: MonitoringHealthState,
    message: z.string().describe('Human-readable explanation of the state'),
    checked_at: NullableTimestamp.describe('When the platform last answered; null when svc never calls the platform (platform_b_agents)'),
  })
  .meta({ id: 'MonitoringHealth' });
export type MonitoringHealth = z.infer<typeof MonitoringHealth>;

/** An exact call that could not be imported; open until a replay (or the importer's own retry) stores it. */
export const ImportFailure = z
  .strictObject({
    id: z.string().describe('`imf_...`; replay it with POST /api/monitoring/platform_a/failures/{failureId}/replay'),
    conversation_id: z.string().describe('The platform\'s conversation id'),
    reason: z.string().describe('Why the last attempt failed, e.g. `incomplete: status "processing" without a transcript`'),
    attempts: z.number().int().min(1).describe('Reads of this call so far (importer and replays)'),
    first_failed_at: Timestamp,
    last_failed_at: Timestamp,
  })
  .meta({ id: 'ImportFailure' });
export type ImportFailure = z.infer<typeof ImportFailure>;

/** Import state: `importing` until the 30-day backfill is done, then `active`; `degraded` while failures are open. */
export const ImportState = z.enum(['importing', 'active', 'degraded']).meta({ id: 'ImportState' });
export type ImportState = z.infer<typeof ImportState>;

/** A platform_a agent chosen for monitoring, with its import progress. */
export const MonitoredAgent = z
  .strictObject({
    id: z.string().describe('The platform\'s agent id'),
    name: z.string().describe('The platform\'s name of the agent when the setup was saved'),
    import_state: ImportState,
    scan: z
      .strictObject({
        scanned: z.number().int().min(0).describe('Listed conversations settled: stored, failure opened, or skipped as failed on the platform'),
        total: z.number().int().min(0).describe('Conversations listed so far (the 30-day window, then every new one)'),
      })
      .describe('Progress of the backfill, then running totals'),
    last_success_at: NullableTimestamp.describe('End of the last poll of this agent that the platform answered in full'),
    last_conversation_at: NullableTimestamp.describe('Start time of the newest stored conversation of this agent'),
    failures: z.array(ImportFailure).describe('Open import failures, oldest first'),
  })
  .meta({ id: 'MonitoredAgent' });
export type MonitoredAgent = z.infer<typeof MonitoredAgent>;

/** A project's monitoring setup for one platform. */
export const MonitoringSetup = z
  .strictObject({
    platform: MonitoringPlatform,
    strategy: MonitoringStrategy,
    health: MonitoringHealth,
    last_received_at: NullableTimestamp.describe('When the last production conversation (or span) arrived; null until the first one'),
    created_at: Timestamp,
    updated_at: Timestamp,
    api_key_hint: z.string().nullable().describe('The last characters of the platform key (`...abcd`); null for platform_b_agents'),
    agents: z.array(MonitoredAgent).describe('Selected agents (platform_a); always empty for platform_b_agents'),
  })
  .meta({ id: 'MonitoringSetup' });
export type MonitoringSetup = z.infer<typeof MonitoringSetup>;

/** A voice agent of platform_a that can be chosen. */
export const PlatformAgentChoice = z
  .strictObject({
    id: z.string().min(1).max(200).describe('The platform\'s agent id'),
    name: z.string().max(500).describe('Display name; on save the platform\'s current name is stored instead'),
  })
  .meta({ id: 'PlatformAgentChoice' });
export type PlatformAgentChoice = z.infer<typeof PlatformAgentChoice>;

const PlatformApiKey = HeaderSecret.describe('A platform_a API key; checked with the platform, never returned');

export const MonitoringQuery = z.strictObject({
  project: Id.optional().describe('Project id or name; required unless the key is scoped to a project'),
});

export const GetMonitoringResponse = z.array(MonitoringSetup).describe('Zero, one or two setups: platform_a first');

export const PostDiscoverBody = z.strictObject({ api_key: PlatformApiKey });
export const PostDiscoverResponse = z.array(PlatformAgentChoice).describe('Voice agents only, sorted by name');

export const PutPlatformABody = z.strictObject({
  api_key: PlatformApiKey.describe('Needs agents_read plus history_read or monitor; sealed at rest, shown only as `api_key_hint`'),
  agents: z
    .array(PlatformAgentChoice)
    .min(1)
    .max(100)
    .refine((list) => new Set(list.map((a) => a.id)).size === list.length, { message: 'each agent id at most once' })
    .describe('The agents to monitor; replaces the previous selection'),
});

export const DeleteMonitoringParams = z.strictObject({
  platform: z.enum(['platform_a', 'platform_b-agents']).describe('`platform_a` or `platform_b-agents`'),
});

export const ReplayFailureParams = z.strictObject({ failureId: Id.describe('`imf_...` from an agent\'s `failures`') });

export const ReplayFailureResponse = z
  .strictObject({
    id: z.string().describe('The failure id'),
    status: z.literal('resolved'),
    write: z.enum(['written', 'already']).describe('`written`: stored now; `already`: the conversation was stored before (never a second copy)'),
  })
  .meta({ id: 'ReplayResult' });
export type ReplayFailureResponse = z.infer<typeof ReplayFailureResponse>;
