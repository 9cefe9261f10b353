import type { BehaviorResult, EndReason, RunProblem } from '@svc/contract';
import type { ConnectionService } from '../agents/connection-service.js';
import { type Logger, describeError } from '../logging/logger.js';
import type { BackgroundTask } from '../runtime.js';
import { nowIso } from '../shared/ids.js';
import type { TestRepository } from '../test-authoring/repository.js';
import { LLM_VARIABLES, type RunsConfig } from './config.js';
import { AgentError, openSession } from './connectors/index.js';
import { converse } from './conversation.js';
import type { NewEvent, RunNotifier } from './events.js';
import { JUDGE_PROMPT_VERSION, JudgeError, grade } from './judge.js';
import { LlmClient, LlmError } from './llm.js';
import type { CallQueue, ClaimedCall } from './queue.js';
import { CallGone, CallRecorder } from './recorder.js';

/** Why an in-flight call was aborted. */
class Stop extends Error {
  constructor(readonly kind: 'cancel' | 'shutdown') {
    super(kind);
  }
}

const SWEEP_MS = 1_000;

export interface ExecutorDeps {
  queue: CallQueue;
  tests: TestRepository;
  connections: ConnectionService;
  config: RunsConfig;
  notifier: RunNotifier;
  log: Logger;
}

/** Turns a failure of the conversation or the grading into the call's problem; rethrows anything else. */
function problemOf(err: unknown): RunProblem {
  if (err instanceof AgentError || err instanceof LlmError) return { code: err.code, message: err.message };
  if (err instanceof JudgeError) return { code: err.code, message: err.message };
  throw err;
}

const ungraded = (behaviors: readonly string[], why: string): BehaviorResult[] => behaviors.map((behavior, index) => ({ index, behavior, verdict: 'error', rationale: why, turns: [] }));

/**
 * Executes queued calls in the background: claims them under the
 * per-organization limit, plays and grades each, and records every step.
 * Requests never wait for it. On start, calls a crash left running are
 * marked `interrupted` and their runs resume (or finish).
 */
export class RunExecutor implements BackgroundTask {
  readonly name = 'run-executor';
  private readonly inflight = new Map<string, { runId: string; controller: AbortController; done: Promise<void> }>();
  private timer: NodeJS.Timeout | undefined;
  private scheduled = false;
  private stopped = false;
  private readonly llm: LlmClient | null;

  constructor(private readonly deps: ExecutorDeps) {
    this.llm = deps.config.llm ? new LlmClient(deps.config.llm) : null;
  }

  start(): void {
    const touched = this.deps.queue.recoverInterrupted(nowIso(), 'The server stopped while this call was in progress; it was not retried.');
    for (const runId of touched) this.deps.notifier.notify(runId);
    if (touched.length) this.deps.log.warn('runs: recovered calls interrupted by a restart', { runs: touched.length });
    this.timer = setInterval(() => this.wake(), SWEEP_MS);
    this.timer.unref();
    this.wake();
  }

  /** Looks for work soon (after a run is created, a call finishes, or a sweep). */
  wake(): void {
    if (this.stopped || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  /** Stops the run's in-flight calls (the cancel itself is already recorded). */
  cancelRun(runId: string): void {
    for (const call of this.inflight.values()) if (call.runId === runId) call.controller.abort(new Stop('cancel'));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    for (const call of this.inflight.values()) call.controller.abort(new Stop('shutdown'));
    await Promise.allSettled([...this.inflight.values()].map((c) => c.done));
  }

  private pump(): void {
    while (!this.stopped) {
      let claimed: ClaimedCall | null;
      try {
        claimed = this.deps.queue.claim(this.deps.config.concurrency, nowIso());
      } catch (err) {
        this.deps.log.error('runs: claiming a call failed', describeError(err));
        return;
      }
      if (!claimed) return;
      this.deps.notifier.notify(claimed.runId);
      const controller = new AbortController();
      const call = claimed;
      const done = this.execute(call, controller.signal).finally(() => {
        this.inflight.delete(call.id);
        this.wake();
      });
      this.inflight.set(call.id, { runId: call.runId, controller, done });
    }
  }

  private async execute(call: ClaimedCall, signal: AbortSignal): Promise<void> {
    const scope = { organizationId: call.organizationId, projectId: call.projectId };
    const recorder = new CallRecorder(this.deps.queue, call, this.deps.notifier);
    const llm = this.llm;
    try {
      const version = await this.deps.tests.getVersion(scope, call.testVersionId);
      const opened = await this.deps.connections.open(scope, call.connectionId);
      if (!version || !opened) throw new Error(`the pinned version or the connection of call ${call.id} is gone`);
      const behaviors = version.content.expectedBehaviors;
      if (!llm) {
        // Queued before a restart without a model endpoint: end the call rather than leave the run hanging.
        const problem = { code: 'llm_not_configured', message: `The server has no language model configured (${LLM_VARIABLES.join(', ')}).` };
        recorder.finish({ status: 'error', endReason: null, problem, behaviors: ungraded(behaviors, 'Not graded: no language model is configured.'), judge: null }, []);
        return;
      }
      let endReason: EndReason;
      try {
        const session = openSession(opened, call.id, version.content.mockTools.map((m) => m.tool), this.deps.config);
        const brief = { scenario: version.content.scenario, personaName: call.personaName, personaDescription: call.personaDescription };
        endReason = await converse({ llm, session, brief, mocks: version.content.mockTools, maxTurns: this.deps.config.maxTurns, recorder }, signal);
      } catch (err) {
        if (signal.aborted) throw signal.reason;
        const problem = problemOf(err);
        recorder.finish({ status: 'error', endReason: 'error', problem, behaviors: ungraded(behaviors, `Not graded: the conversation failed (${problem.code}).`), judge: null }, []);
        return;
      }
      const judge = { prompt_version: JUDGE_PROMPT_VERSION, model: llm.config.model };
      let results: BehaviorResult[];
      try {
        results = await grade(llm, { scenario: version.content.scenario, behaviors, transcript: recorder.transcript, toolCalls: recorder.toolCalls, endReason }, signal);
      } catch (err) {
        if (signal.aborted) throw signal.reason;
        const problem = problemOf(err);
        const errors = ungraded(behaviors, `No valid judgement: ${problem.message}`);
        recorder.finish({ status: 'error', endReason, problem, behaviors: errors, judge }, errors.map((b) => gradeEvent(call.id, b)));
        return;
      }
      const status = results.every((b) => b.verdict === 'passed') ? 'passed' : 'failed';
      recorder.finish({ status, endReason, problem: null, behaviors: results, judge }, results.map((b) => gradeEvent(call.id, b)));
    } catch (err) {
      if (err instanceof CallGone || (err instanceof Stop && err.kind === 'cancel')) return;
      if (err instanceof Stop) {
        const runs = this.deps.queue.recoverInterrupted(nowIso(), 'The server was stopped while this call was in progress; it was not retried.', [call.id]);
        for (const runId of runs) this.deps.notifier.notify(runId);
        return;
      }
      this.deps.log.error('runs: a call failed unexpectedly', { call_id: call.id, run_id: call.runId, ...describeError(err) });
      try {
        recorder.finish({ status: 'error', endReason: 'error', problem: { code: 'internal_error', message: 'The call failed unexpectedly; the server log has the details.' }, behaviors: [], judge: null }, []);
      } catch {
        /* canceled meanwhile: nothing more to write */
      }
    }
  }
}

function gradeEvent(callId: string, b: BehaviorResult): NewEvent {
  return { type: 'grade', data: { call_id: callId, index: b.index, behavior: b.behavior, verdict: b.verdict, rationale: b.rationale, turns: b.turns } };
}
