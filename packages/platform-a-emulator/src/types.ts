/** Permissions a platform key can hold (platform-a.md, "Authentication and permissions"). */
export type Permission = 'agents_read' | 'history_read' | 'monitor';
export const PERMISSIONS: readonly Permission[] = ['agents_read', 'history_read', 'monitor'];

export type Modality = 'voice' | 'text';
export type ConversationStatus = 'in_progress' | 'processing' | 'done' | 'failed';
export const STATUSES: readonly ConversationStatus[] = ['in_progress', 'processing', 'done', 'failed'];

export interface KeyRecord {
  key: string;
  permissions: Permission[];
  /** Shown in the request log instead of the key itself. */
  label: string;
}

/** One rule of an agent's deterministic chat behaviour; the first rule whose `when` occurs in the message applies. */
export interface ChatRule {
  /** Case-insensitive substring(s) of the user message that select this rule. */
  when: string | string[];
  /** Reply template: `{message}`, `{agent}`, `{turn}` and (after a tool call) `{tool_output}` are filled in. */
  reply?: string;
  /** Ask the caller to run a tool; the reply comes with the next call's `tool_results`. */
  tool_call?: { name: string; arguments?: Record<string, unknown> };
  /** End the conversation after this reply. */
  end?: boolean;
}

export interface ChatBehaviour {
  rules?: ChatRule[];
  /** Reply when no rule matches. Default: `You said: {message}`. */
  fallback?: string;
  /** A user message containing one of these ends the conversation. Default: `bye`, `goodbye`. */
  end_phrases?: string[];
  /** Reply that ends the conversation. Default: `Goodbye!`. */
  end_reply?: string;
}

export interface AgentRecord {
  agent_id: string;
  name: string;
  modality: Modality;
  created_at_unix: number;
  chat?: ChatBehaviour;
}

export interface TranscriptEntry {
  role: 'agent' | 'user' | 'tool';
  message: string;
  time_in_call_secs: number;
  tool_name?: string;
  latency_ms?: number;
}

export interface ConversationRecord {
  conversation_id: string;
  agent_id: string;
  status: ConversationStatus;
  start_time_unix: number;
  duration_secs: number;
  termination_reason: string | null;
  transcript: TranscriptEntry[] | null;
  metadata: Record<string, unknown>;
  /** Fault injection: the detail read answers incomplete this many more times. */
  incomplete_reads: number;
}

/** A conversation as a seed file or the admin API describes it; everything but `agent_id` has a default. */
export interface ConversationSeed {
  conversation_id?: string;
  agent_id: string;
  status?: ConversationStatus;
  start_time_unix?: number;
  /** Alternative to `start_time_unix`: seconds before now. */
  started_ago_secs?: number;
  duration_secs?: number;
  termination_reason?: string | null;
  /** Omitted for a `done` conversation: a deterministic transcript is generated. */
  transcript?: TranscriptEntry[] | null;
  metadata?: Record<string, unknown>;
  incomplete_reads?: number;
}

/** Many generated conversations for one agent (the bench's 10k, the demo's history). */
export interface GenerateSpec {
  agent_id: string;
  count: number;
  /** Start times spread evenly over this many days before now (default 30; more than 30 puts some outside the list window). */
  days?: number;
  /** Seed of the pseudo-random generator (default 1): the same spec makes the same conversations. */
  seed?: number;
  /** How many of the newest are still `in_progress` (default 0). */
  in_progress?: number;
  /** Prefix of the generated ids (default `cv_<agent_id>_<seed>_`). */
  id_prefix?: string;
}

export interface SeedDocument {
  keys?: Array<{ key: string; permissions: Permission[]; label?: string }>;
  agents?: Array<Omit<AgentRecord, 'created_at_unix'> & { created_at_unix?: number }>;
  conversations?: ConversationSeed[];
  generate?: GenerateSpec[];
}

/** An injected fault. Matching requests get a delay, an error status, or a dropped connection. */
export interface Fault {
  id: string;
  method?: string;
  /** Applies to paths starting with this (default: every `/v1/` path). */
  path_prefix?: string;
  /** Applies only to requests made with the key of this label. */
  key_label?: string;
  status?: number;
  /** Seconds, sent as `Retry-After` (with status 429 or 503). */
  retry_after?: number;
  /** Response body for `status` (default: the platform's JSON error for 429, plain text otherwise). */
  body?: string;
  delay_ms?: number;
  /** Destroy the connection without an answer: the platform is unreachable. */
  drop?: boolean;
  /** How many more matching requests it applies to; absent means until cleared. */
  times?: number;
}

export interface RequestLogEntry {
  seq: number;
  at_ms: number;
  method: string;
  path: string;
  query: Record<string, string>;
  key_label: string | null;
  status: number;
}
