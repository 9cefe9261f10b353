import type { ConversationToolCall, ConversationTurn } from '@svc/contract';
import type { StoredSpan } from '../traces/repository.js';
import type { ConversationInput } from './repository.js';
import {
  AGENT_TURN_SPANS, PLUMBING_SPANS, SESSION_SPANS, STT_SPANS, USER_TURN_SPANS, agentText, flag, isLlm, isTool, isTts, jsonish, llmTtftMs, text,
  ttsTtfbMs, userText,
} from './span-names.js';

const nsToMs = (ns: bigint) => Number(ns / 1000n) / 1000;
const nsToIso = (ns: bigint) => new Date(Number(ns / 1_000_000n)).toISOString();
const round = (ms: number) => Math.round(ms * 10) / 10;

/** The spans of one session (one or more traces) and where they belong. */
export interface SessionSpans {
  organizationId: string;
  projectId: string;
  /** The session id, or the trace id when no span named a session. */
  externalId: string;
  spans: StoredSpan[];
}

interface Draft {
  turn: ConversationTurn;
  startNs: bigint;
}

function descendantsOf(root: StoredSpan, children: Map<string, StoredSpan[]>): StoredSpan[] {
  const out: StoredSpan[] = [];
  const stack = [...(children.get(root.spanId) ?? [])];
  while (stack.length) {
    const span = stack.pop()!;
    out.push(span);
    stack.push(...(children.get(span.spanId) ?? []));
  }
  return out.sort((a, b) => (a.startNs < b.startNs ? -1 : a.startNs > b.startNs ? 1 : 0));
}

function ancestorIn(span: StoredSpan, byId: Map<string, StoredSpan>, set: Set<StoredSpan>): StoredSpan | null {
  for (let p = span.parentSpanId ? byId.get(span.parentSpanId) : undefined; p; p = p.parentSpanId ? byId.get(p.parentSpanId) : undefined) {
    if (set.has(p)) return p;
  }
  return null;
}

function emptyTurn(role: ConversationTurn['role'], span: StoredSpan): ConversationTurn {
  return {
    index: 0, role, text: null, started_at: nsToIso(span.startNs), offset_ms: null, duration_ms: round(nsToMs(span.endNs - span.startNs)),
    latency_ms: null, llm_ttft_ms: null, tts_ttfb_ms: null, interrupted: false, tool_name: null,
  };
}

/**
 * Derives a production conversation from a session's spans: user and agent
 * turns (with interruptions), per-turn latency (end of user speech to first
 * agent audio, LLM time to first token, TTS time to first byte) and tool
 * calls. Spans it does not recognise are counted in `metadata.unknown_spans`.
 */
export function conversationFromSpans(session: SessionSpans): ConversationInput {
  const spans = [...session.spans].sort((a, b) => (a.startNs < b.startNs ? -1 : a.startNs > b.startNs ? 1 : 0));
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const children = new Map<string, StoredSpan[]>();
  for (const s of spans) if (s.parentSpanId && byId.has(s.parentSpanId)) children.set(s.parentSpanId, [...(children.get(s.parentSpanId) ?? []), s]);

  const root = spans.find((s) => SESSION_SPANS.has(s.name)) ?? null;
  const startNs = spans.reduce((min, s) => (s.startNs < min ? s.startNs : min), spans[0]!.startNs);
  const userSpans = spans.filter((s) => USER_TURN_SPANS.has(s.name));
  const userSet = new Set(userSpans);
  // Speech-recognition spans stand for user turns only where the framework has no user_turn span.
  for (const s of spans) if (STT_SPANS.has(s.name) && userText(s) && !ancestorIn(s, byId, userSet)) userSpans.push(s);
  const agentSpans = spans.filter((s) => AGENT_TURN_SPANS.has(s.name));
  const agentSet = new Set(agentSpans);
  if (agentSpans.length === 0) for (const s of spans) if (isLlm(s)) agentSpans.push(s);

  const drafts: Draft[] = userSpans.map((s) => ({ turn: { ...emptyTurn('user', s), text: userText(s) }, startNs: s.startNs }));
  const userEnds = userSpans.map((s) => s.endNs).sort((a, b) => (a < b ? -1 : 1));
  const agentDrafts = new Map<StoredSpan, Draft>();
  for (const a of agentSpans.sort((x, y) => (x.startNs < y.startNs ? -1 : 1))) {
    const inner = [a, ...descendantsOf(a, children)];
    const llm = inner.find(isLlm);
    const tts = inner.filter(isTts);
    const turn = emptyTurn('agent', a);
    turn.text = (llm && agentText(llm)) ?? (tts.map((t) => text(t, 'lk.input_text', 'text')).filter(Boolean).join(' ') || agentText(a));
    turn.interrupted = inner.some((s) => flag(s, 'lk.interrupted', 'turn.was_interrupted', 'interrupted'));
    turn.llm_ttft_ms = llm ? llmTtftMs(llm) : null;
    const firstTts = tts[0];
    turn.tts_ttfb_ms = firstTts ? ttsTtfbMs(firstTts) : null;
    const firstAudioNs = firstTts && turn.tts_ttfb_ms !== null ? firstTts.startNs + BigInt(Math.round(turn.tts_ttfb_ms * 1e6)) : null;
    // A Pipecat turn holds its own speech recognition; otherwise the user spoke last before this turn's audio.
    const ownStt = inner.filter((s) => STT_SPANS.has(s.name)).map((s) => s.endNs);
    const heard = ownStt.length ? ownStt : userEnds.filter((end) => firstAudioNs !== null && end <= firstAudioNs);
    const userEnd = heard.length ? heard[heard.length - 1]! : null;
    if (firstAudioNs !== null && userEnd !== null && firstAudioNs >= userEnd) turn.latency_ms = round(nsToMs(firstAudioNs - userEnd));
    for (const k of ['llm_ttft_ms', 'tts_ttfb_ms'] as const) if (turn[k] !== null) turn[k] = round(turn[k]!);
    const agentStart = ownStt.length && userEnd! > a.startNs ? userEnd! : a.startNs;
    turn.started_at = nsToIso(agentStart);
    const draft = { turn, startNs: agentStart };
    agentDrafts.set(a, draft);
    drafts.push(draft);
  }

  const toolSpans = spans.filter(isTool);
  const toolDrafts: Array<{ call: ConversationToolCall; draft: Draft; owner: StoredSpan | null }> = toolSpans.map((s) => {
    const name = text(s, 'lk.function_tool.name', 'gen_ai.tool.name') ?? s.name;
    const isError = flag(s, 'lk.function_tool.is_error') || s.statusCode === 2;
    const output = jsonish(s.attributes['lk.function_tool.output'] ?? s.attributes['gen_ai.tool.call.result'] ?? null);
    const call: ConversationToolCall = {
      name,
      arguments: jsonish(s.attributes['lk.function_tool.arguments'] ?? s.attributes['gen_ai.tool.call.arguments'] ?? null),
      output: isError ? null : output,
      error: isError ? (s.statusMessage ?? (typeof output === 'string' ? output : 'tool failed')) : null,
      started_at: nsToIso(s.startNs),
      duration_ms: round(nsToMs(s.endNs - s.startNs)),
      turn_index: null,
    };
    const draft = { turn: { ...emptyTurn('tool', s), tool_name: name, text: typeof call.output === 'string' ? call.output : null }, startNs: s.startNs };
    return { call, draft, owner: ancestorIn(s, byId, agentSet) };
  });
  drafts.push(...toolDrafts.map((t) => t.draft));

  drafts.sort((a, b) => (a.startNs < b.startNs ? -1 : a.startNs > b.startNs ? 1 : 0));
  drafts.forEach((d, i) => {
    d.turn.index = i;
    d.turn.offset_ms = round(nsToMs(d.startNs - startNs));
  });
  for (const t of toolDrafts) t.call.turn_index = t.owner ? (agentDrafts.get(t.owner)?.turn.index ?? null) : null;

  const known = (s: StoredSpan) =>
    SESSION_SPANS.has(s.name) || USER_TURN_SPANS.has(s.name) || AGENT_TURN_SPANS.has(s.name) || STT_SPANS.has(s.name) || PLUMBING_SPANS.has(s.name) ||
    isLlm(s) || isTts(s) || isTool(s);
  const unknown = new Map<string, number>();
  for (const s of spans) if (!known(s)) unknown.set(s.name, (unknown.get(s.name) ?? 0) + 1);

  const first = root ?? spans[0]!;
  const endNs = root ? root.endNs : null;
  const tag = (...keys: string[]) => spans.map((s) => text(s, ...keys)).find((v) => v !== null) ?? null;
  return {
    organizationId: session.organizationId,
    projectId: session.projectId,
    source: 'platform_b',
    externalId: session.externalId,
    agentId: null,
    platformAgentId: tag('svc.agent.name', 'lk.agent_name') ?? (text({ ...first, attributes: first.resourceAttributes }, 'service.name')),
    startedAt: nsToIso(startNs),
    endedAt: endNs === null ? null : nsToIso(endNs),
    durationMs: endNs === null ? null : round(nsToMs(endNs - startNs)),
    terminationReason: root ? (root.statusCode === 2 ? (root.statusMessage ?? 'error') : (text(root, 'svc.termination_reason', 'lk.close_reason') ?? 'completed')) : null,
    traceId: first.traceId,
    turns: drafts.map((d) => d.turn),
    toolCalls: toolDrafts.map((t) => t.call),
    metadata: {
      trace_ids: [...new Set(spans.map((s) => s.traceId))],
      span_count: spans.length,
      unknown_spans: [...unknown].map(([name, count]) => ({ name, count })),
      job_id: tag('svc.job.id', 'lk.job_id'),
      room_name: tag('svc.room.name', 'lk.room_name'),
      service_name: text({ ...first, attributes: first.resourceAttributes }, 'service.name'),
    },
  };
}
