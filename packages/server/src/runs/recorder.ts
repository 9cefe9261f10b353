import type { ToolCallRecord, TranscriptEntry } from '@svc/contract';
import { nowIso } from '../shared/ids.js';
import type { AgentToolCall } from './connectors/types.js';
import type { NewEvent, RunNotifier } from './events.js';
import { type AnsweredTool, percentile } from './mock-tools.js';
import type { CallOutcome, CallProgress, CallQueue, ClaimedCall } from './queue.js';

/** The call is no longer running (canceled): its work stops and nothing more is written. */
export class CallGone extends Error {
  constructor() {
    super('the call is no longer running');
    this.name = 'CallGone';
  }
}

/**
 * Keeps one call's transcript and tool calls, and writes each step durably
 * with its event (`turn`, `tool_call`) before the conversation goes on.
 */
export class CallRecorder {
  readonly transcript: TranscriptEntry[] = [];
  readonly toolCalls: ToolCallRecord[] = [];

  constructor(
    private readonly queue: CallQueue,
    private readonly call: ClaimedCall,
    private readonly notifier: RunNotifier,
  ) {}

  /** What the caller said. */
  caller(text: string): void {
    const entry = this.entry('caller', text, null, null);
    this.save([{ type: 'turn', data: { call_id: this.call.id, index: entry.index, role: 'caller', text, latency_ms: null } }]);
  }

  /** What the agent said (null text: only tool calls) and how long it took. */
  agent(text: string | null, latencyMs: number): void {
    const entry = this.entry('agent', text, Math.round(latencyMs), null);
    this.save([{ type: 'turn', data: { call_id: this.call.id, index: entry.index, role: 'agent', text, latency_ms: entry.latency_ms } }]);
  }

  /** The answers to a round of tool calls, in the order the agent made them. */
  tools(calls: readonly AgentToolCall[], answers: readonly AnsweredTool[]): void {
    const events: NewEvent[] = calls.map((call, i) => {
      const a = answers[i]!;
      const entry = this.entry('tool', a.result.content, null, call.id);
      this.toolCalls.push({ id: call.id, name: call.name, arguments: call.arguments, transcript_index: entry.index, outcome: a.outcome, delay_ms: a.delayMs, requested_at: a.requestedAt, answered_at: a.answeredAt });
      return {
        type: 'tool_call',
        data: { call_id: this.call.id, index: entry.index, tool_call_id: call.id, name: call.name, outcome: a.outcome, delay_ms: a.delayMs, requested_at: a.requestedAt, answered_at: a.answeredAt },
      };
    });
    this.save(events);
  }

  /** Writes the outcome (grades, `call.finished`, maybe `run.finished`). */
  finish(outcome: Omit<CallOutcome, keyof CallProgress>, events: readonly NewEvent[]): void {
    if (!this.queue.finish(this.call, { ...this.progress(), ...outcome }, events, nowIso())) throw new CallGone();
    this.notifier.notify(this.call.runId);
  }

  private progress(): CallProgress {
    const latencies = this.transcript.flatMap((e) => (e.role === 'agent' && e.latency_ms !== null ? [e.latency_ms] : []));
    return {
      transcript: this.transcript,
      toolCalls: this.toolCalls,
      latency: latencies.length ? { p50: percentile(latencies, 50), p95: percentile(latencies, 95) } : null,
    };
  }

  private entry(role: TranscriptEntry['role'], text: string | null, latencyMs: number | null, toolCallId: string | null): TranscriptEntry {
    const entry: TranscriptEntry = { index: this.transcript.length, role, text, at: nowIso(), latency_ms: latencyMs, tool_call_id: toolCallId };
    this.transcript.push(entry);
    return entry;
  }

  private save(events: readonly NewEvent[]): void {
    if (!this.queue.progress(this.call, this.progress(), events, nowIso())) throw new CallGone();
    this.notifier.notify(this.call.runId);
  }
}
