import { z } from 'zod';
import { CursorQuery, Id, NullableTimestamp, Timestamp, cursorPage, prefixedId } from '../common.js';

/** Limits of one run; refusals are 422 `validation_failed`. */
export const RUN_LIMITS = {
  testVersions: 100,
  repeat: 20,
  concurrency: 50,
  /** versions × personas × repeat */
  calls: 1000,
  eventsPage: 500,
  waitSeconds: 30,
} as const;

/** `queued` → `running` → `passed` | `failed` | `error`; `canceled` from `queued` or `running`. */
export const RunStatus = z.enum(['queued', 'running', 'passed', 'failed', 'error', 'canceled']).meta({
  id: 'RunStatus',
  description: '`passed`: every call passed. `failed`: at least one call failed a behavior. `error`: no call failed but at least one could not be completed or graded. `canceled`: stopped by a cancel.',
});
export type RunStatus = z.infer<typeof RunStatus>;

/** A call goes `queued` → `running` → `passed` | `failed` | `error` | `canceled`. */
export const CallStatus = z.enum(['queued', 'running', 'passed', 'failed', 'error', 'canceled']).meta({ id: 'RunCallStatus' });
export type CallStatus = z.infer<typeof CallStatus>;

/** Why a conversation ended. */
export const EndReason = z.enum(['caller_ended', 'agent_ended', 'turn_limit', 'error', 'canceled']).meta({
  id: 'RunCallEndReason',
  description: '`caller_ended`: the simulated caller finished the scenario. `agent_ended`: the agent hung up (`end_call` / `ended`). `turn_limit`: the configured turn limit was reached.',
});
export type EndReason = z.infer<typeof EndReason>;

export const BehaviorVerdict = z.enum(['passed', 'failed', 'error']).meta({
  id: 'BehaviorVerdict',
  description: '`error`: the judge gave no valid judgement (the call is then `error`, never a pass).',
});
export type BehaviorVerdict = z.infer<typeof BehaviorVerdict>;

/** How svc answered a tool call of the agent. */
export const ToolOutcome = z.enum(['answer', 'error', 'unmatched']).meta({
  id: 'ToolOutcome',
  description: '`answer`/`error`: a mock tool of the test answered. `unmatched`: no mock matched the tool name; the agent received an error result saying so, and the call is flagged.',
});
export type ToolOutcome = z.infer<typeof ToolOutcome>;

/** Why a call or run ended in `error` or `canceled`. */
export const RunProblem = z
  .strictObject({
    code: z.string().describe('Stable snake_case reason, e.g. `interrupted`, `agent_unreachable`, `llm_unavailable`, `judge_invalid`, `canceled`'),
    message: z.string(),
  })
  .meta({ id: 'RunProblem' });
export type RunProblem = z.infer<typeof RunProblem>;

export const TranscriptEntry = z
  .strictObject({
    index: z.number().int().min(0).describe('Position in the transcript; grades cite these'),
    role: z.enum(['caller', 'agent', 'tool']),
    text: z.string().nullable().describe('What was said; for `tool`, the result or error as sent to the agent; null for an agent message with only tool calls'),
    at: Timestamp,
    latency_ms: z.number().int().min(0).nullable().describe('`agent`: time the agent took to answer this message (mock delays excluded); null otherwise'),
    tool_call_id: z.string().nullable().describe('`tool`: the tool call this answers; null otherwise'),
  })
  .meta({ id: 'RunTranscriptEntry' });
export type TranscriptEntry = z.infer<typeof TranscriptEntry>;

export const ToolCallRecord = z
  .strictObject({
    id: z.string().describe('The tool call id the agent gave'),
    name: z.string(),
    arguments: z.unknown().describe('As the agent sent them'),
    transcript_index: z.number().int().min(0).describe('The `tool` transcript entry holding its result'),
    outcome: ToolOutcome,
    delay_ms: z.number().int().min(0).describe('Mock delay applied before answering'),
    requested_at: Timestamp,
    answered_at: Timestamp,
  })
  .meta({ id: 'RunToolCall' });
export type ToolCallRecord = z.infer<typeof ToolCallRecord>;

export const BehaviorResult = z
  .strictObject({
    index: z.number().int().min(0),
    behavior: z.string(),
    verdict: BehaviorVerdict,
    rationale: z.string(),
    turns: z.array(z.number().int().min(0)).describe('Transcript indexes the verdict rests on'),
  })
  .meta({ id: 'RunBehaviorResult' });
export type BehaviorResult = z.infer<typeof BehaviorResult>;

export const LatencySummary = z.strictObject({ p50: z.number().int().min(0), p95: z.number().int().min(0) }).meta({ id: 'LatencySummary' });

export const CallMetrics = z
  .strictObject({
    turns: z.number().int().min(0).describe('Caller and agent messages'),
    agent_latency_ms: LatencySummary.nullable().describe('Agent reply latency per turn; null before the first reply'),
    tool_calls: z.number().int().min(0),
    unmatched_tools: z.number().int().min(0),
    duration_ms: z.number().int().min(0).nullable().describe('From start to finish; null until the call finished'),
  })
  .meta({ id: 'RunCallMetrics' });
export type CallMetrics = z.infer<typeof CallMetrics>;

export const JudgeInfo = z
  .strictObject({
    prompt_version: z.string().describe('Version of the fixed rubric prompt, e.g. `judge-v1`'),
    model: z.string(),
  })
  .meta({ id: 'RunJudge' });

/** One simulated call: a pinned version, one of its personas, one repetition. */
export const RunCallResult = z
  .strictObject({
    id: z.string().describe('`call_...`'),
    test_id: z.string(),
    test_name: z.string().describe('The test\'s current name'),
    test_version_id: z.string().describe('The pinned `tstv_` version'),
    version: z.number().int().min(1),
    superseded: z.boolean().describe('True once a later edit has superseded the pinned version'),
    persona_id: z.string(),
    persona_name: z.string().describe('As it was when the run was created'),
    repetition: z.number().int().min(1),
    status: CallStatus,
    end_reason: EndReason.nullable(),
    problem: RunProblem.nullable().describe('Why the call is `error` or `canceled`; null otherwise'),
    started_at: NullableTimestamp,
    finished_at: NullableTimestamp,
    transcript: z.array(TranscriptEntry),
    tool_calls: z.array(ToolCallRecord),
    unmatched_tools: z.array(z.string()).describe('Names of tools the agent called that no mock of the test answers'),
    behaviors: z.array(BehaviorResult).describe('One per expected behavior once graded; empty before'),
    judge: JudgeInfo.nullable(),
    metrics: CallMetrics,
  })
  .meta({ id: 'RunCallResult' });
export type RunCallResult = z.infer<typeof RunCallResult>;

const counts = z.number().int().min(0);
export const RunSummary = z
  .strictObject({
    calls: z.strictObject({ total: counts, queued: counts, running: counts, passed: counts, failed: counts, error: counts, canceled: counts }),
    behaviors: z.strictObject({ passed: counts, failed: counts, error: counts }),
    unmatched_tools: counts.describe('Tool calls no mock answered, over every call'),
  })
  .meta({ id: 'RunSummary' });
export type RunSummary = z.infer<typeof RunSummary>;

const runFields = {
  id: z.string().describe('`run_...`'),
  project_id: z.string(),
  status: RunStatus,
  test_versions: z.array(z.string()).describe('The pinned `tstv_` ids, as requested'),
  agent_id: z.string(),
  connection_id: z.string().describe('The connection the calls go through'),
  repeat: z.number().int().min(1),
  concurrency: z.number().int().min(1).describe('Most calls of this run at once (the organization limit `SVC_RUN_CONCURRENCY` also applies)'),
  created_at: Timestamp,
  started_at: NullableTimestamp,
  finished_at: NullableTimestamp,
  summary: RunSummary,
};

/** A run with every call's result. */
export const RunObject = z.strictObject({ ...runFields, results: z.array(RunCallResult).describe('One per call, in execution order') }).meta({ id: 'Run' });
export type RunObject = z.infer<typeof RunObject>;

/** A run in a list: everything but the per-call results. */
export const RunListItem = z.strictObject(runFields).meta({ id: 'RunListItem' });
export type RunListItem = z.infer<typeof RunListItem>;

export const PostRunsBody = z.strictObject({
  test_versions: z
    .array(prefixedId('tstv_'))
    .min(1)
    .max(RUN_LIMITS.testVersions)
    .describe('Test version ids to run; each runs once per persona it names, `repeat` times'),
  agent_id: prefixedId('agt_'),
  connection_id: prefixedId('con_').optional().describe('Default: the agent\'s newest active `http_chat` or `platform_a_chat_api` connection'),
  project: Id.optional().describe('Project id or name; defaults to the key\'s project'),
  repeat: z.number().int().min(1).max(RUN_LIMITS.repeat).optional().describe('Calls per version and persona (default 1)'),
  concurrency: z.number().int().min(1).max(RUN_LIMITS.concurrency).optional().describe('Most calls of this run at once (default: the organization limit)'),
});
export type PostRunsBody = z.infer<typeof PostRunsBody>;

export const PostRunsHeaders = z.object({
  'idempotency-key': z
    .string()
    .min(1)
    .max(200)
    .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces')
    .optional()
    .describe('Same key and body return the same run; the same key with another body is 409 `idempotency_conflict`. Keys are kept per project for the life of the run.'),
});

export const GetRunsQuery = CursorQuery.extend({
  project: Id.optional().describe('Project id or name; defaults to the key\'s project'),
  status: RunStatus.optional(),
  agent_id: Id.optional(),
});
export const GetRunsResponse = cursorPage(RunListItem);
export const RunIdParams = z.strictObject({ runId: Id.describe('`run_...`') });

export const RUN_EVENT_TYPES = ['run.queued', 'run.started', 'call.started', 'turn', 'tool_call', 'call.finished', 'grade', 'run.finished', 'run.canceled'] as const;
export const RunEventType = z.enum(RUN_EVENT_TYPES).meta({ id: 'RunEventType' });
export type RunEventType = z.infer<typeof RunEventType>;

const callRef = { call_id: z.string() };
/** `data` of each event type. */
export const RunEventData = {
  'run.queued': z.strictObject({ calls: counts }),
  'run.started': z.strictObject({}),
  'call.started': z.strictObject({ ...callRef, test_version_id: z.string(), persona_id: z.string(), repetition: z.number().int().min(1) }),
  turn: z.strictObject({ ...callRef, index: counts, role: z.enum(['caller', 'agent']), text: z.string().nullable(), latency_ms: z.number().int().min(0).nullable() }),
  tool_call: z.strictObject({
    ...callRef,
    index: counts.describe('Transcript index of the tool result'),
    tool_call_id: z.string(),
    name: z.string(),
    outcome: ToolOutcome,
    delay_ms: counts,
    requested_at: Timestamp,
    answered_at: Timestamp,
  }),
  'call.finished': z.strictObject({ ...callRef, status: CallStatus, end_reason: EndReason.nullable(), problem: RunProblem.nullable() }),
  grade: z.strictObject({ ...callRef, index: counts, behavior: z.string(), verdict: BehaviorVerdict, rationale: z.string(), turns: z.array(counts) }),
  'run.finished': z.strictObject({ status: RunStatus, summary: RunSummary }),
  'run.canceled': z.strictObject({ summary: RunSummary }),
} as const satisfies Record<RunEventType, z.ZodType>;
export type RunEventDataOf<T extends RunEventType> = z.infer<(typeof RunEventData)[T]>;

const eventOf = <T extends RunEventType>(type: T) =>
  z.strictObject({ seq: z.number().int().min(1), type: z.literal(type), at: Timestamp, data: RunEventData[type] });

/** One event of a run; `seq` counts 1, 2, 3... per run with no gaps. */
export const RunEvent = z
  .discriminatedUnion('type', [
    eventOf('run.queued'),
    eventOf('run.started'),
    eventOf('call.started'),
    eventOf('turn'),
    eventOf('tool_call'),
    eventOf('call.finished'),
    eventOf('grade'),
    eventOf('run.finished'),
    eventOf('run.canceled'),
  ])
  .meta({ id: 'RunEvent' });
export type RunEvent = z.infer<typeof RunEvent>;

export const GetRunEventsQuery = z.strictObject({
  after: z.coerce.number().int().min(0).optional().describe('The previous response\'s `next`; 0 or omitted reads from the first event'),
  limit: z.coerce.number().int().min(1).max(RUN_LIMITS.eventsPage).optional().describe(`Most events per response (default 100, at most ${RUN_LIMITS.eventsPage})`),
  wait: z.coerce
    .number()
    .min(0)
    .max(RUN_LIMITS.waitSeconds)
    .optional()
    .describe(`Seconds (at most ${RUN_LIMITS.waitSeconds}) to hold the request when no event follows \`after\` and the run is not done; it returns as soon as one arrives`),
});

export const GetRunEventsResponse = z
  .strictObject({
    events: z.array(RunEvent),
    next: z.number().int().min(0).describe('Pass as `after` to read on'),
    caughtUp: z.boolean().describe('True when every event so far has been read'),
    done: z.boolean().describe('True when the run has finished and every event has been read: stop polling'),
  })
  .meta({ id: 'RunEventsPage' });
export type GetRunEventsResponse = z.infer<typeof GetRunEventsResponse>;
