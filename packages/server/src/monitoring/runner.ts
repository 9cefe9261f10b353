import type { Logger } from '../logging/logger.js';
import { describeError } from '../logging/logger.js';
import type { Sealer } from '../shared/sealing.js';
import { nowIso } from '../shared/ids.js';
import type { SqliteImportRepository } from './import-repository.js';
import { AgentGoneError } from './import-repository.js';
import { type AgentImporter, RunAbortedError, SetupRun, StopRunError } from './importer.js';
import type { SqliteMonitoringRepository } from './repository.js';
import { platformKeyContext } from './sealing-context.js';

export interface RunnerDeps {
  repo: SqliteMonitoringRepository;
  imports: SqliteImportRepository;
  importer: AgentImporter;
  sealer: Sealer;
  log: Logger;
}

/**
 * One poll of one setup: reads it fresh, opens its key, imports each selected
 * agent in turn, and records the health that followed the platform's last
 * answer. A refusal of the whole key stops the run; a cancelled run just ends.
 */
export function setupRunner(deps: RunnerDeps) {
  return async (setupId: string, signal: AbortSignal): Promise<{ more: boolean }> => {
    const setup = await deps.repo.findSetupById(setupId);
    if (!setup || setup.platform !== 'platform_a' || !setup.sealedApiKey) return { more: false };
    if (setup.notBefore && Date.parse(setup.notBefore) > Date.now()) return { more: false };
    let apiKey: string;
    try {
      apiKey = deps.sealer.open(setup.sealedApiKey, platformKeyContext(setup.projectId));
    } catch {
      await deps.imports.noteHealth(setupId, { state: 'invalid_credential', message: 'The stored key cannot be unsealed (was the secret key changed?); save the setup again.', at: nowIso() });
      return { more: false };
    }
    const run = new SetupRun(setup, apiKey, signal);
    const log = deps.log.child({ setup_id: setupId, project_id: setup.projectId });
    let more = false;
    for (const agent of await deps.repo.agents(setupId)) {
      try {
        const result = await deps.importer.run(run, agent);
        more ||= result.more;
        if (!agent.backfillDone && !result.more) log.debug('import run finished', { platform_agent_id: agent.platformAgentId });
      } catch (err) {
        if (err instanceof RunAbortedError || signal.aborted) return { more: false };
        if (err instanceof AgentGoneError) continue;
        if (err instanceof StopRunError) {
          log.warn('the platform refused the import', { platform_agent_id: agent.platformAgentId, health: err.health.state });
          await deps.imports.noteHealth(setupId, err.health);
          return { more: false };
        }
        log.error('import of an agent failed', { platform_agent_id: agent.platformAgentId, ...describeError(err) });
        return { more: false };
      }
    }
    if (run.health) await deps.imports.noteHealth(setupId, run.health);
    if (run.imported || run.failed) log.info('imported production conversations', { imported: run.imported, failures_opened_or_retried: run.failed });
    return { more };
  };
}
