import { setTimeout as wait } from 'node:timers/promises';
import type { ConversationInput, ConversationRepository } from '../conversations/repository.js';
import type { PlatformAClient } from '../platform-a/client.js';
import { newId, nowIso } from '../shared/ids.js';
import type { SqliteFailureRepository } from './failure-repository.js';
import type { SqliteImportRepository, WorkItem } from './import-repository.js';
import type { AgentRecord, CallOutcome, HealthNote, SetupRecord } from './model.js';
import { POLICY, nextRetryAt } from './policy.js';
import { healthAfter, readCall } from './read-call.js';

/** The platform refused the run as a whole (key, permission, rate limit, outage): stop calling it until the next poll. */
export class StopRunError extends Error {
  constructor(readonly health: HealthNote) {
    super(health.message);
  }
}

/** The run was cancelled (setup deleted or re-saved, server stopping). */
export class RunAbortedError extends Error {}

/** One run over one setup: the opened key, the cancel signal and the health seen so far. */
export class SetupRun {
  health: HealthNote | null = null;
  stop: HealthNote | null = null;
  imported = 0;
  failed = 0;

  constructor(
    readonly setup: SetupRecord,
    readonly apiKey: string,
    readonly signal: AbortSignal,
  ) {}

  note(h: HealthNote): void {
    this.health = h;
  }

  checkAborted(): void {
    if (this.signal.aborted) throw new RunAbortedError('cancelled');
  }
}

export interface ImporterDeps {
  client: PlatformAClient;
  imports: SqliteImportRepository;
  failures: SqliteFailureRepository;
  conversations: ConversationRepository;
  retryBaseMs: number;
  leaseMs: number;
}

/** A complete conversation read by a batch, waiting for the batch's write. */
interface Complete {
  kind: 'complete';
  conversationId: string;
  startUnix: number;
  input: ConversationInput;
}

interface Target {
  organizationId: string;
  projectId: string;
  setupId: string;
  agentId: string;
  platformAgentId: string;
}

/** Runs `work` over items with at most `concurrency` at once, starting no new item once `stopped()`; results and the first error both come back. */
async function pool<T, R>(items: readonly T[], concurrency: number, work: (item: T) => Promise<R>, stopped: () => boolean): Promise<{ results: R[]; error: unknown }> {
  const results: R[] = [];
  let next = 0;
  let error: unknown;
  const worker = async () => {
    while (next < items.length && error === undefined && !stopped()) {
      const item = items[next++]!;
      try {
        results.push(await work(item));
      } catch (err) {
        error ??= err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return { results, error };
}

/**
 * Imports one selected agent: lists new conversations since the watermark
 * (the 30-day window the first time), fetches each `done` one and stores it
 * once, re-checks calls that were still running, and retries open failures
 * when due. All progress is durable, so any run can stop anywhere.
 */
export class AgentImporter {
  constructor(private readonly deps: ImporterDeps) {}

  /** One run for one agent; `more` when work is left that should not wait for the next poll. */
  async run(run: SetupRun, agent: AgentRecord): Promise<{ more: boolean }> {
    const t: Target = { organizationId: run.setup.organizationId, projectId: run.setup.projectId, setupId: run.setup.id, agentId: agent.platformAgentId, platformAgentId: agent.platformAgentId };
    let more = !(await this.list(run, agent));
    let fetched = 0;
    while (fetched < POLICY.maxFetchesPerRun) {
      const items = await this.deps.imports.work(t.setupId, t.agentId, 'queued', POLICY.batchSize);
      if (items.length === 0) break;
      fetched += await this.batch(run, t, items, 'queued');
    }
    if (fetched >= POLICY.maxFetchesPerRun) more = true;
    const pending = await this.deps.imports.work(t.setupId, t.agentId, 'pending', 500);
    if (pending.length) await this.batch(run, t, pending, 'pending');
    await this.retryFailures(run, t);
    const watermark = agent.watermarkUnix ?? Math.floor(Date.now() / 1000) - POLICY.listWindowSecs;
    await this.deps.imports.finishRun(t.setupId, t.agentId, nowIso(), watermark - POLICY.overlapSecs - POLICY.pruneMarginSecs);
    return { more };
  }

  /** Lists pages of the current pass; true when the listing reached its last page. */
  private async list(run: SetupRun, agent: AgentRecord): Promise<boolean> {
    const { imports, client } = this.deps;
    const setupId = run.setup.id;
    let since = agent.passSinceUnix;
    let cursor = agent.passCursor ?? undefined;
    if (since === null) {
      const floor = Math.floor(Date.now() / 1000) - POLICY.listWindowSecs;
      since = agent.watermarkUnix === null ? floor : Math.max(floor, agent.watermarkUnix - POLICY.overlapSecs);
      await imports.beginPass(setupId, agent.platformAgentId, since);
      cursor = undefined;
    }
    for (let page = 0; page < POLICY.maxPagesPerRun; page++) {
      run.checkAborted();
      const answer = await client.listConversations(run.apiKey, { agentId: agent.platformAgentId, cursor, sinceUnix: since, pageSize: POLICY.pageSize }, run.signal);
      if (!answer.ok) {
        run.checkAborted();
        // A refused cursor (expired, or from before a platform change): the next run lists the pass again from its start.
        if (answer.kind === 'bad_response' && cursor) await imports.beginPass(setupId, agent.platformAgentId, since);
        throw new StopRunError(healthAfter(answer.kind === 'not_found' ? { ...answer, kind: 'unavailable' } : answer));
      }
      run.note(healthAfter(null));
      const calls = answer.value.conversations
        .filter((c) => c.agent_id === undefined || c.agent_id === agent.platformAgentId)
        .map((c) => ({ conversationId: c.conversation_id, startUnix: c.start_time_unix, status: c.status }));
      const next = answer.value.next_cursor ?? null;
      await imports.recordPage(setupId, agent.platformAgentId, calls, next, nowIso());
      if (next === null) return true;
      cursor = next;
    }
    return false;
  }

  /**
   * Fetches a batch, stores its complete conversations in one transaction,
   * then commits what became of each call (also when the run stops part-way).
   */
  private async batch(run: SetupRun, t: Target, items: readonly WorkItem[], from: 'queued' | 'pending'): Promise<number> {
    const { results, error } = await pool(items, POLICY.fetchConcurrency, (item) => this.importOne(run, t, item, from), () => run.stop !== null || run.signal.aborted);
    const complete = results.filter((r): r is Complete => r.kind === 'complete');
    const writes = await this.deps.conversations.insertManyOnce(complete.map((c) => c.input));
    const outcomes: CallOutcome[] = results.map((r) => {
      if (r.kind !== 'complete') return r;
      return { kind: 'imported', conversationId: r.conversationId, startUnix: r.startUnix, write: writes[complete.indexOf(r)]!.write };
    });
    const now = new Date();
    await this.deps.imports.settle(t, outcomes, run.health, now.toISOString(), nextRetryAt(now, POLICY.readsBeforeFailure, this.deps.retryBaseMs));
    run.imported += complete.length;
    run.failed += outcomes.filter((r) => r.kind === 'failed').length;
    if (error !== undefined) throw error;
    if (run.stop) throw new StopRunError(run.stop);
    return results.length;
  }

  /** Reads one call until it is complete, settled otherwise, or the run must stop; complete ones are stored by the batch. */
  private async importOne(run: SetupRun, t: Target, item: WorkItem, from: 'queued' | 'pending'): Promise<CallOutcome | Complete> {
    const conversationId = item.conversationId;
    for (let reads = 1; ; reads++) {
      run.checkAborted();
      const read = await readCall(this.deps.client, run.apiKey, conversationId, t, run.signal);
      if (read.kind === 'platform') {
        run.checkAborted();
        throw new StopRunError(healthAfter(read.failure));
      }
      if (read.kind === 'unavailable') {
        run.note(healthAfter(read.failure));
        if (reads < POLICY.readsBeforeFailure) {
          await this.pause(run, POLICY.readBackoffMs[reads - 1] ?? 1000);
          continue;
        }
        if (item.fetchErrors + 1 >= POLICY.fetchErrorsBeforeFailure) return { kind: 'failed', conversationId, reason: read.reason, attempts: reads };
        run.stop = healthAfter(read.failure);
        return { kind: 'fetch_error', conversationId };
      }
      run.note(healthAfter(null));
      if (read.kind === 'complete') return { kind: 'complete', conversationId, startUnix: read.startUnix, input: read.input };
      if (read.kind !== 'incomplete') return { kind: 'failed', conversationId, reason: read.reason, attempts: reads };
      if (read.status === 'failed') return { kind: 'skipped', conversationId };
      if (from === 'pending' && (read.status === 'in_progress' || read.status === 'processing')) {
        const waited = Date.now() - Date.parse(item.firstSeenAt);
        if (waited < POLICY.pendingGiveUpMs) return { kind: 'pending', conversationId };
        return { kind: 'failed', conversationId, reason: `${read.reason}, ${Math.round(waited / 3600_000)} h after it was first listed`, attempts: reads };
      }
      if (reads >= POLICY.readsBeforeFailure) return { kind: 'failed', conversationId, reason: read.reason, attempts: reads };
      await this.pause(run, POLICY.readBackoffMs[reads - 1] ?? 1000);
    }
  }

  /** Retries open failures whose time has come, under the same lease a replay takes. */
  private async retryFailures(run: SetupRun, t: Target): Promise<void> {
    const { failures, conversations } = this.deps;
    const due = await failures.dueForRetry(t.setupId, t.agentId, nowIso(), POLICY.maxAutomaticAttempts, POLICY.retriesPerRun);
    for (const failure of due) {
      run.checkAborted();
      const owner = `importer:${newId('')}`;
      if (!(await failures.claim(failure.id, owner, nowIso(), this.deps.leaseMs))) continue;
      const read = await readCall(this.deps.client, run.apiKey, failure.conversationId, t, run.signal);
      if (read.kind === 'platform') {
        await failures.release(failure.id, owner);
        run.checkAborted();
        throw new StopRunError(healthAfter(read.failure));
      }
      run.note(healthAfter(read.kind === 'unavailable' ? read.failure : null));
      if (read.kind === 'complete') {
        const stored = await conversations.insertOnce(read.input);
        await failures.resolve(failure, stored.write, read.startUnix, nowIso());
        run.imported++;
        continue;
      }
      const now = new Date();
      await failures.recordAttempt(failure.id, owner, read.reason, now.toISOString(), nextRetryAt(now, failure.attempts + 1, this.deps.retryBaseMs));
      if (read.kind === 'unavailable') throw new StopRunError(healthAfter(read.failure));
    }
  }

  private async pause(run: SetupRun, ms: number): Promise<void> {
    try {
      await wait(ms, undefined, { signal: run.signal });
    } catch {
      throw new RunAbortedError('cancelled');
    }
  }
}
