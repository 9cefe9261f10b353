import type { ConversationToolCall, ConversationTurn } from '@svc/contract';
import { z } from 'zod';
import type { ConversationInput } from '../conversations/repository.js';
import { type PlatformConversation, TranscriptEntry } from './schemas.js';

/** Where the imported conversation belongs in svc. */
export interface ImportTarget {
  organizationId: string;
  projectId: string;
  platformAgentId: string;
}

/** A detail read judged: complete (mapped), incomplete (wait or fail), or unusable data. */
export type Judged =
  | { kind: 'complete'; input: ConversationInput }
  | { kind: 'incomplete'; status: string; reason: string }
  | { kind: 'invalid'; reason: string };

const Transcript = z.array(TranscriptEntry);

const iso = (unixSeconds: number) => new Date(Math.round(unixSeconds * 1000)).toISOString();

/**
 * Judges a detail read and maps a complete one into a production
 * conversation (`source: platform_a`). Complete means `status: done` with a
 * transcript (platform-a.md); the platform's `failed` is terminal.
 */
export function judgeConversation(c: PlatformConversation, target: ImportTarget): Judged {
  if (c.status !== 'done' || c.transcript === undefined || c.transcript === null) {
    return { kind: 'incomplete', status: c.status, reason: `incomplete: the platform reports status "${c.status}"${c.transcript == null ? ' without a transcript' : ''}` };
  }
  const parsed = Transcript.safeParse(c.transcript);
  if (!parsed.success) return { kind: 'invalid', reason: `invalid_data: the transcript is malformed at ${parsed.error.issues[0]?.path.join('.') || 'transcript'}` };
  if (c.agent_id !== undefined && c.agent_id !== target.platformAgentId) {
    return { kind: 'invalid', reason: `invalid_data: the conversation belongs to agent ${c.agent_id}` };
  }
  const entries = parsed.data;
  const startMs = Math.round(c.start_time_unix * 1000);
  const durationMs = typeof c.duration_secs === 'number' ? Math.round(c.duration_secs * 1000) : null;
  const offsets = entries.map((e) => (typeof e.time_in_call_secs === 'number' ? Math.round(e.time_in_call_secs * 1000) : null));

  const turns: ConversationTurn[] = entries.map((e, index) => {
    const offset = offsets[index] ?? null;
    const nextOffset = offsets.slice(index + 1).find((o) => o !== null) ?? durationMs;
    return {
      index,
      role: e.role,
      text: e.message ?? null,
      started_at: offset === null ? null : new Date(startMs + offset).toISOString(),
      offset_ms: offset,
      duration_ms: offset !== null && nextOffset !== null && nextOffset !== undefined && nextOffset >= offset ? nextOffset - offset : null,
      latency_ms: e.role === 'agent' && typeof e.latency_ms === 'number' ? e.latency_ms : null,
      llm_ttft_ms: null,
      tts_ttfb_ms: null,
      interrupted: false,
      tool_name: e.tool_name ?? null,
    };
  });

  const toolCalls: ConversationToolCall[] = turns
    .filter((t) => t.role === 'tool')
    .map((t) => ({ name: t.tool_name ?? 'unknown', arguments: null, output: parseMaybeJson(t.text), error: null, started_at: t.started_at, duration_ms: null, turn_index: t.index }));

  return {
    kind: 'complete',
    input: {
      organizationId: target.organizationId,
      projectId: target.projectId,
      source: 'platform_a',
      externalId: c.conversation_id,
      agentId: null,
      platformAgentId: target.platformAgentId,
      startedAt: iso(c.start_time_unix),
      endedAt: durationMs === null ? null : new Date(startMs + durationMs).toISOString(),
      durationMs,
      terminationReason: c.termination_reason ?? null,
      traceId: null,
      turns,
      toolCalls,
      metadata: c.metadata ?? {},
    },
  };
}

function parseMaybeJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
