import { z } from 'zod';

// The platform's answers (platform-a.md). Loose objects: the platform may add
// fields without breaking the import; only what svc reads is checked.

export const PlatformAgent = z.looseObject({
  agent_id: z.string().min(1),
  name: z.string(),
  modality: z.string(),
  created_at_unix: z.number().optional(),
});
export type PlatformAgent = z.infer<typeof PlatformAgent>;

export const AgentPage = z.looseObject({
  agents: z.array(PlatformAgent),
  next_cursor: z.string().nullable().optional(),
});

export const PlatformConversationStatus = z.string();

export const ConversationStub = z.looseObject({
  conversation_id: z.string().min(1),
  agent_id: z.string().optional(),
  start_time_unix: z.number(),
  duration_secs: z.number().nullable().optional(),
  status: PlatformConversationStatus,
});
export type ConversationStub = z.infer<typeof ConversationStub>;

export const ConversationPage = z.looseObject({
  conversations: z.array(ConversationStub),
  next_cursor: z.string().nullable().optional(),
});

export const TranscriptEntry = z.looseObject({
  role: z.enum(['agent', 'user', 'tool']),
  message: z.string().nullable().optional(),
  time_in_call_secs: z.number().nullable().optional(),
  tool_name: z.string().nullable().optional(),
  latency_ms: z.number().nullable().optional(),
});
export type TranscriptEntry = z.infer<typeof TranscriptEntry>;

/** The detail read. `transcript` is checked later, so an odd one is reported as invalid data, not as an unreadable answer. */
export const PlatformConversation = z.looseObject({
  conversation_id: z.string().min(1),
  agent_id: z.string().optional(),
  status: PlatformConversationStatus,
  start_time_unix: z.number(),
  duration_secs: z.number().nullable().optional(),
  termination_reason: z.string().nullable().optional(),
  transcript: z.unknown().optional(),
  metadata: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type PlatformConversation = z.infer<typeof PlatformConversation>;
