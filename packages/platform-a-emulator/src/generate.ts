import type { ConversationRecord, GenerateSpec, TranscriptEntry } from './types.js';

/** A small deterministic pseudo-random generator (mulberry32): the same seed gives the same data set. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A stable 32-bit hash of a string, to derive per-conversation seeds. */
export function hashString(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

const USER_LINES = [
  'Hi, I would like to check on my order.',
  'Can I move my appointment to Friday?',
  'What are your opening hours?',
  'I was charged twice this month.',
  'Is the blue model still in stock?',
  'I need to update my address.',
  'Can you tell me the status of my refund?',
  'Thanks, that is all.',
];
const AGENT_LINES = [
  'Of course, let me look that up for you.',
  'Sure, I can help with that.',
  'I see the record here.',
  'That has been updated.',
  'Is there anything else I can help you with?',
  'Thanks for calling, have a great day.',
];
const TOOLS = ['lookup_order', 'check_calendar', 'update_address', 'issue_refund'];
const ENDINGS = ['user_hangup', 'agent_ended_call', 'silence_timeout', 'max_duration_reached'];

/** A plausible transcript for a conversation id: alternating user and agent turns, sometimes a tool call. */
export function transcriptFor(conversationId: string): { transcript: TranscriptEntry[]; duration_secs: number; termination_reason: string } {
  const rnd = random(hashString(conversationId));
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)]!;
  const exchanges = 2 + Math.floor(rnd() * 4);
  const transcript: TranscriptEntry[] = [{ role: 'agent', message: 'Hello, thanks for calling. How can I help?', time_in_call_secs: 0 }];
  let t = 1 + Math.floor(rnd() * 3);
  for (let i = 0; i < exchanges; i++) {
    transcript.push({ role: 'user', message: pick(USER_LINES), time_in_call_secs: t });
    t += 2 + Math.floor(rnd() * 6);
    if (rnd() < 0.3) {
      const tool = pick(TOOLS);
      transcript.push({ role: 'tool', message: JSON.stringify({ ok: true, tool }), time_in_call_secs: t, tool_name: tool });
      t += 1;
    }
    transcript.push({ role: 'agent', message: pick(AGENT_LINES), time_in_call_secs: t, latency_ms: 350 + Math.floor(rnd() * 1200) });
    t += 2 + Math.floor(rnd() * 8);
  }
  return { transcript, duration_secs: t + 1, termination_reason: pick(ENDINGS) };
}

/**
 * Conversations for `spec.agent_id`, start times spread evenly over
 * `spec.days` before `nowUnix`, newest first. All are `done` with a
 * transcript except the `in_progress` newest ones.
 */
export function generateConversations(spec: GenerateSpec, nowUnix: number): ConversationRecord[] {
  const seed = spec.seed ?? 1;
  const days = spec.days ?? 30;
  const prefix = spec.id_prefix ?? `cv_${spec.agent_id}_${seed}_`;
  const span = Math.max(1, days * 86400 - 120);
  const out: ConversationRecord[] = [];
  for (let i = 0; i < spec.count; i++) {
    const id = `${prefix}${String(i).padStart(6, '0')}`;
    const start = nowUnix - 60 - Math.floor((span * i) / Math.max(1, spec.count));
    const live = i < (spec.in_progress ?? 0);
    const made = transcriptFor(id);
    out.push({
      conversation_id: id,
      agent_id: spec.agent_id,
      status: live ? 'in_progress' : 'done',
      start_time_unix: start,
      duration_secs: live ? 0 : made.duration_secs,
      termination_reason: live ? null : made.termination_reason,
      transcript: live ? null : made.transcript,
      metadata: { language: 'en', caller_tail: String(1000 + (hashString(id) % 9000)) },
      incomplete_reads: 0,
    });
  }
  return out;
}
