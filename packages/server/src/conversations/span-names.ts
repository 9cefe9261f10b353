import type { StoredSpan } from '../traces/repository.js';

/**
 * Which spans mean what, for the span names and attributes realtime voice
 * frameworks emit (LiveKit Agents, Pipecat, the GenAI semantic conventions).
 * The table is documented in README.md beside this file.
 */
export const SESSION_SPANS = new Set(['agent_session', 'conversation']);
export const USER_TURN_SPANS = new Set(['user_turn']);
export const AGENT_TURN_SPANS = new Set(['agent_turn', 'turn']);
export const STT_SPANS = new Set(['stt', 'stt_request', 'user_speaking']);
export const LLM_SPANS = new Set(['llm_request', 'llm', 'llm_node']);
export const TTS_SPANS = new Set(['tts_request', 'tts', 'tts_node']);
export const TOOL_SPANS = new Set(['function_tool', 'tool_call']);
/** Spans known to carry no transcript of their own (kept in the trace, not listed as unknown). */
export const PLUMBING_SPANS = new Set(['start_agent_activity', 'drain_agent_activity', 'on_enter', 'on_exit', 'on_user_turn_completed', 'eou_detection', 'agent_speaking', 'speech']);

const LLM_OPERATIONS = new Set(['chat', 'text_completion', 'generate_content']);

function attr(span: StoredSpan, ...keys: string[]): unknown {
  for (const key of keys) {
    const value = span.attributes[key];
    if (value !== undefined && value !== null && value !== '') return value;
  }
  return undefined;
}

/** A string attribute (first of the keys that is set). */
export function text(span: StoredSpan, ...keys: string[]): string | null {
  const value = attr(span, ...keys);
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null;
}

/** A boolean attribute, accepting `true`/`"true"`. */
export function flag(span: StoredSpan, ...keys: string[]): boolean {
  const value = attr(span, ...keys);
  return value === true || value === 'true';
}

/** A field of a JSON-object attribute (LiveKit's `lk.llm_metrics` / `lk.tts_metrics` are JSON strings). */
function metric(span: StoredSpan, key: string, field: string): number | null {
  let value = span.attributes[key];
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  const n = value && typeof value === 'object' ? (value as Record<string, unknown>)[field] : undefined;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

function seconds(span: StoredSpan, ...keys: string[]): number | null {
  const value = attr(span, ...keys);
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

/** A language-model call: a known LLM span name, or a GenAI `chat`/completion operation. */
export function isLlm(span: StoredSpan): boolean {
  return LLM_SPANS.has(span.name) || LLM_OPERATIONS.has(String(span.attributes['gen_ai.operation.name'] ?? ''));
}

/** A speech-synthesis span. */
export function isTts(span: StoredSpan): boolean {
  return TTS_SPANS.has(span.name);
}

/** A tool call: LiveKit's `function_tool`, or a GenAI `execute_tool` span. */
export function isTool(span: StoredSpan): boolean {
  return TOOL_SPANS.has(span.name) || span.attributes['gen_ai.operation.name'] === 'execute_tool' || span.name.startsWith('execute_tool');
}

/** Language-model time to first token, in milliseconds, when the span reports it. */
export function llmTtftMs(span: StoredSpan): number | null {
  const s = metric(span, 'lk.llm_metrics', 'ttft') ?? seconds(span, 'gen_ai.response.time_to_first_token', 'metrics.ttfb');
  return s === null ? null : s * 1000;
}

/** Speech-synthesis time to first byte, in milliseconds, when the span reports it. */
export function ttsTtfbMs(span: StoredSpan): number | null {
  const s = metric(span, 'lk.tts_metrics', 'ttfb') ?? seconds(span, 'metrics.ttfb');
  return s === null ? null : s * 1000;
}

/** The words a user turn or speech-recognition span heard. */
export function userText(span: StoredSpan): string | null {
  return text(span, 'lk.user_transcript', 'transcript', 'gen_ai.input.text', 'user.transcript');
}

/** The words an agent turn said: the model's reply, else what was synthesized. */
export function agentText(span: StoredSpan): string | null {
  return text(span, 'lk.response.text', 'gen_ai.output.text', 'output', 'lk.input_text', 'text');
}

/** Parses a JSON-text attribute (tool arguments, outputs); leaves other text as is. */
export function jsonish(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? null;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
