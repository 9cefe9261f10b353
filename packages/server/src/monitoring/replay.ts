import type { ReplayFailureResponse } from '@svc/contract';
import type { ConversationRepository } from '../conversations/repository.js';
import { AppError, notFound } from '../http/errors.js';
import type { PlatformAClient } from '../platform-a/client.js';
import { newId, nowIso } from '../shared/ids.js';
import type { Sealer } from '../shared/sealing.js';
import type { SqliteFailureRepository } from './failure-repository.js';
import type { SqliteImportRepository } from './import-repository.js';
import { platformRefusal } from './platform-errors.js';
import { nextRetryAt } from './policy.js';
import { healthAfter, readCall } from './read-call.js';
import type { SqliteMonitoringRepository } from './repository.js';
import { platformKeyContext } from './sealing-context.js';

export interface ReplayDeps {
  repo: SqliteMonitoringRepository;
  imports: SqliteImportRepository;
  failures: SqliteFailureRepository;
  conversations: ConversationRepository;
  client: PlatformAClient;
  sealer: Sealer;
  leaseMs: number;
  retryBaseMs: number;
}

/**
 * Replays one import failure: claims it under a lease, reads the exact call
 * by id (any age), stores it once and resolves the failure. Replaying a
 * resolved failure answers `already` without calling the platform.
 */
export async function replayFailure(deps: ReplayDeps, projectId: string, failureId: string): Promise<ReplayFailureResponse> {
  const failure = await deps.failures.find(projectId, failureId);
  if (!failure) throw notFound('import failure');
  if (failure.status === 'resolved') return { id: failure.id, status: 'resolved', write: 'already' };
  const setup = await deps.repo.findSetupById(failure.setupId);
  if (!setup?.sealedApiKey) throw notFound('import failure');
  if (setup.notBefore && Date.parse(setup.notBefore) > Date.now()) {
    const secs = Math.max(1, Math.ceil((Date.parse(setup.notBefore) - Date.now()) / 1000));
    throw new AppError('too_many_requests', `The platform is rate limiting this key; retry after ${secs} s.`, { retry_after_seconds: secs }, { 'Retry-After': String(secs) });
  }

  const owner = `replay:${newId('')}`;
  if (!(await deps.failures.claim(failure.id, owner, nowIso(), deps.leaseMs))) {
    const again = await deps.failures.find(projectId, failureId);
    if (again?.status === 'resolved') return { id: failure.id, status: 'resolved', write: 'already' };
    throw new AppError('replay_in_progress', 'Another replay of this failure is in progress; try again when it has finished.', { failure_id: failure.id });
  }
  let settled = false;
  try {
    const apiKey = deps.sealer.open(setup.sealedApiKey, platformKeyContext(setup.projectId));
    const target = { organizationId: setup.organizationId, projectId: setup.projectId, platformAgentId: failure.platformAgentId };
    const read = await readCall(deps.client, apiKey, failure.conversationId, target);
    if (read.kind === 'platform') {
      await deps.imports.noteHealth(setup.id, healthAfter(read.failure));
      throw platformRefusal(read.failure);
    }
    await deps.imports.noteHealth(setup.id, healthAfter(read.kind === 'unavailable' ? read.failure : null));
    if (read.kind === 'complete') {
      const stored = await deps.conversations.insertOnce(read.input);
      await deps.failures.resolve(failure, stored.write, read.startUnix, nowIso());
      settled = true;
      return { id: failure.id, status: 'resolved', write: stored.write };
    }
    const now = new Date();
    await deps.failures.recordAttempt(failure.id, owner, read.reason, now.toISOString(), nextRetryAt(now, failure.attempts + 1, deps.retryBaseMs));
    settled = true;
    if (read.kind === 'unavailable') throw platformRefusal(read.failure);
    throw new AppError('conversation_incomplete', `The platform cannot supply this conversation complete yet (${read.reason}).`, { conversation_id: failure.conversationId, reason: read.reason });
  } finally {
    if (!settled) await deps.failures.release(failure.id, owner);
  }
}
