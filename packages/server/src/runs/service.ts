import { createHash } from 'node:crypto';
import { type GetRunEventsResponse, type PostRunsBody, RUN_LIMITS, type RunListItem, type RunObject, type RunStatus } from '@svc/contract';
import type { ConnectionService } from '../agents/connection-service.js';
import type { AgentService } from '../agents/service.js';
import { AppError, notFound } from '../http/errors.js';
import { type Principal, lookupScope, requireWriter } from '../http/principal.js';
import type { PersonaRepository } from '../personas/repository.js';
import type { ProjectRepository } from '../projects/repository.js';
import { resolveProject } from '../projects/resolve.js';
import { nowIso } from '../shared/ids.js';
import type { Page } from '../storage/sqlite/keyset.js';
import { canonicalJson } from '../test-authoring/content.js';
import type { TestRepository } from '../test-authoring/repository.js';
import { LLM_VARIABLES, type RunsConfig } from './config.js';
import { RUNNABLE_CONNECTION_TYPES } from './connectors/index.js';
import type { RunNotifier } from './events.js';
import type { NewCall, RunRepository } from './repository.js';
import { isTerminal } from './rows.js';

/** What the service needs of the executor: a nudge after a create, a stop after a cancel. */
export interface ExecutorControl {
  wake(): void;
  cancelRun(runId: string): void;
}

export interface RunServiceDeps {
  runs: RunRepository;
  tests: TestRepository;
  personas: PersonaRepository;
  agents: AgentService;
  connections: ConnectionService;
  projects: ProjectRepository;
  config: RunsConfig;
  notifier: RunNotifier;
  executor: ExecutorControl;
}

const DEFAULT_EVENTS_PAGE = 100;
const unprocessable = (code: ConstructorParameters<typeof AppError>[0], message: string, details?: Record<string, unknown>) => new AppError(code, message, details);

/** Runs: the rules of creation, reads, cancel and event reads. Execution is the executor's. */
export class RunService {
  constructor(private readonly d: RunServiceDeps) {}

  /** Creates (or, with a known idempotency key and the same body, finds) a run; `replayed` tells which. */
  async create(principal: Principal, body: PostRunsBody, idempotencyKey: string | undefined): Promise<{ run: RunObject; replayed: boolean }> {
    requireWriter(principal);
    const project = await resolveProject(this.d.projects, principal, body.project);
    if (!this.d.config.llm) {
      throw new AppError('llm_not_configured', `Runs need a language model for the simulated caller and the judge: set ${LLM_VARIABLES.join(', ')} (any OpenAI-compatible chat-completions endpoint) and restart the server.`, {
        variables: [...LLM_VARIABLES],
      });
    }
    const scope = { organizationId: principal.organizationId, projectId: project.id };
    const requestHash = createHash('sha256')
      .update(canonicalJson({ ...body, project: project.id }))
      .digest('hex');
    // A known key answers before any check, so a replay works even if the agent was archived since.
    const earlier = idempotencyKey === undefined ? null : await this.d.runs.findByIdempotencyKey(project.id, idempotencyKey);
    if (earlier) return this.replay(scope, earlier.runId, earlier.requestHash === requestHash);
    const duplicate = body.test_versions.findIndex((v, i) => body.test_versions.indexOf(v) !== i);
    if (duplicate >= 0) {
      throw new AppError('validation_failed', `The body is not valid: test_versions.${duplicate}: ${body.test_versions[duplicate]} is listed twice (use repeat).`, {
        issues: [{ path: `test_versions.${duplicate}`, message: 'listed twice; use repeat to run a version more than once' }],
      });
    }
    const versions = await Promise.all(body.test_versions.map((id) => this.d.tests.getVersion(scope, id)));
    const unknown = body.test_versions.filter((_, i) => !versions[i]);
    if (unknown.length) throw unprocessable('unknown_test_version', `No test version of the project has the id: ${unknown.join(', ')}.`, { unknown });
    const connectionId = await this.checkAgentAndConnection(scope, body.agent_id, body.connection_id);

    const repeat = body.repeat ?? 1;
    const calls: NewCall[] = [];
    for (const version of versions) {
      for (const personaId of version!.content.personaIds) {
        const persona = await this.d.personas.get(scope, personaId);
        for (let repetition = 1; repetition <= repeat; repetition++) {
          calls.push({ testId: version!.testId, testVersionId: version!.id, personaId, personaName: persona?.name ?? personaId, personaDescription: persona?.description ?? null, repetition });
        }
      }
    }
    if (calls.length > RUN_LIMITS.calls) {
      throw new AppError('validation_failed', `The body is not valid: the run would make ${calls.length} calls; at most ${RUN_LIMITS.calls} (versions × personas × repeat).`, {
        issues: [{ path: 'repeat', message: `${calls.length} calls exceed the limit of ${RUN_LIMITS.calls}` }],
      });
    }
    const outcome = await this.d.runs.create({
      organizationId: principal.organizationId,
      projectId: project.id,
      agentId: body.agent_id,
      connectionId,
      testVersions: body.test_versions,
      repeat,
      concurrency: body.concurrency ?? this.d.config.concurrency,
      createdByUserId: principal.userId,
      idempotencyKey,
      requestHash,
      calls,
      at: nowIso(),
    });
    if (outcome.kind !== 'created') return this.replay(scope, outcome.runId, outcome.kind === 'replayed');
    this.d.executor.wake();
    return { run: (await this.d.runs.get(scope, outcome.runId))!, replayed: false };
  }

  /** The answer to a known idempotency key: the run it made for the same request, else 409. */
  private async replay(scope: { organizationId: string; projectId: string }, runId: string, sameRequest: boolean): Promise<{ run: RunObject; replayed: boolean }> {
    if (!sameRequest) throw new AppError('idempotency_conflict', 'This Idempotency-Key was used for a different request; use a new key for a new run.', { run_id: runId });
    return { run: (await this.d.runs.get(scope, runId))!, replayed: true };
  }

  async get(principal: Principal, runId: string): Promise<RunObject> {
    const run = await this.d.runs.get(lookupScope(principal), runId);
    if (!run) throw notFound('run');
    return run;
  }

  async list(principal: Principal, query: { project?: string | undefined; status?: RunStatus | undefined; agent_id?: string | undefined; cursor?: string | undefined; limit?: number | undefined }): Promise<Page<RunListItem>> {
    const project = await resolveProject(this.d.projects, principal, query.project);
    return this.d.runs.list(project.id, { status: query.status, agentId: query.agent_id, afterId: query.cursor, limit: query.limit ?? 50 });
  }

  async cancel(principal: Principal, runId: string): Promise<RunObject> {
    requireWriter(principal);
    const outcome = await this.d.runs.cancel(lookupScope(principal), runId, nowIso());
    if (outcome.kind === 'not_found') throw notFound('run');
    if (outcome.kind === 'finished') throw new AppError('run_finished', `The run already finished (${outcome.status}); only queued or running runs can be canceled.`, { status: outcome.status });
    if (outcome.kind === 'canceled') {
      this.d.executor.cancelRun(runId);
      this.d.notifier.notify(runId);
    }
    return this.get(principal, runId);
  }

  /**
   * A page of events after `after`. With `wait`, when nothing follows and the
   * run is not done, waits for the run's next event (or the timeout) once.
   * The reader subscribes before reading, so no event can slip between.
   */
  async events(principal: Principal, runId: string, query: { after?: number | undefined; limit?: number | undefined; wait?: number | undefined }): Promise<GetRunEventsResponse> {
    const scope = lookupScope(principal);
    const after = query.after ?? 0;
    const limit = query.limit ?? DEFAULT_EVENTS_PAGE;
    const waitMs = Math.round((query.wait ?? 0) * 1000);
    const subscription = waitMs > 0 ? this.d.notifier.subscribe(runId, waitMs) : undefined;
    try {
      let page = await this.page(scope, runId, after, limit);
      if (subscription && page.events.length === 0 && !page.done) {
        await subscription.wait;
        page = await this.page(scope, runId, after, limit);
      }
      return page;
    } finally {
      subscription?.cancel();
    }
  }

  private async page(scope: ReturnType<typeof lookupScope>, runId: string, after: number, limit: number): Promise<GetRunEventsResponse> {
    const head = await this.d.runs.head(scope, runId);
    if (!head) throw notFound('run');
    const events = await this.d.runs.events(runId, after, limit);
    const next = events.length ? events[events.length - 1]!.seq : after;
    const caughtUp = next >= head.lastEventSeq;
    return { events, next, caughtUp, done: caughtUp && isTerminal(head.status) };
  }

  /** The connection a run uses: the one named (of this agent), else the agent's newest runnable one. */
  private async checkAgentAndConnection(scope: { organizationId: string; projectId: string }, agentId: string, connectionId: string | undefined): Promise<string> {
    const agent = await this.d.agents.record(scope, agentId).catch((err: unknown) => {
      if (err instanceof AppError && err.code === 'not_found') throw unprocessable('unknown_agent', `No agent of the project has the id ${agentId}.`, { agent_id: agentId });
      throw err;
    });
    if (agent.archivedAt) throw unprocessable('archived_agent', `The agent ${agentId} is archived; restore it to run tests against it.`, { agent_id: agentId });
    if (connectionId === undefined) {
      const page = await this.d.connections.list({ organizationId: scope.organizationId, agentId }, false, { limit: 100 });
      const runnable = page.items.find((c) => (RUNNABLE_CONNECTION_TYPES as readonly string[]).includes(c.connectionType));
      if (!runnable) {
        throw unprocessable('unknown_connection', `The agent ${agentId} has no active ${RUNNABLE_CONNECTION_TYPES.join(' or ')} connection to run calls through; add one or name connection_id.`, { agent_id: agentId });
      }
      return runnable.id;
    }
    const opened = await this.d.connections.open(scope, connectionId);
    const connection = opened?.connection;
    if (!connection || connection.agentId !== agentId) {
      throw unprocessable('unknown_connection', `The agent ${agentId} has no connection ${connectionId}.`, { connection_id: connectionId });
    }
    if (connection.archivedAt) throw unprocessable('archived_connection', `The connection ${connectionId} is archived; restore it to run tests through it.`, { connection_id: connectionId });
    if (!(RUNNABLE_CONNECTION_TYPES as readonly string[]).includes(connection.connectionType)) {
      throw unprocessable('connection_unsupported', `Runs can drive ${RUNNABLE_CONNECTION_TYPES.join(' and ')} connections; ${connectionId} is ${connection.connectionType}.`, {
        connection_id: connectionId,
        connection_type: connection.connectionType,
      });
    }
    return connection.id;
  }
}
