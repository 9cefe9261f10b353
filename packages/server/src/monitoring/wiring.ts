import type { PlatformAgentDirectory } from '../agents/monitoring-status.js';
import type { ConversationRepository } from '../conversations/repository.js';
import type { Route } from '../http/define-route.js';
import type { Logger } from '../logging/logger.js';
import { PlatformAClient } from '../platform-a/client.js';
import type { ProjectRepository } from '../projects/repository.js';
import type { BackgroundTask } from '../runtime.js';
import type { Sealer } from '../shared/sealing.js';
import type { RelationalStore } from '../storage/sqlite/connection.js';
import { loadMonitoringConfig } from './config.js';
import { SqliteFailureRepository } from './failure-repository.js';
import { SqliteImportRepository } from './import-repository.js';
import { AgentImporter } from './importer.js';
import { SpanReceiptTracker } from './receipts.js';
import { SqliteMonitoringRepository } from './repository.js';
import { monitoringRoutes } from './routes.js';
import { setupRunner } from './runner.js';
import { ImportScheduler } from './scheduler.js';
import { MonitoringService } from './service.js';

export interface MonitoringWiring {
  service: MonitoringService;
  routes: Route[];
  /** The importer's scheduler and the span-receipt flusher; started and stopped by the runtime. */
  tasks: BackgroundTask[];
}

/**
 * Builds the monitoring capability: repositories, the platform_a client,
 * the importer and its scheduler, the service and its routes.
 */
export function createMonitoring(deps: {
  relational: RelationalStore;
  conversations: ConversationRepository;
  projects: ProjectRepository;
  sealer: Sealer;
  env: NodeJS.ProcessEnv;
  log: Logger;
  agentDirectory?: PlatformAgentDirectory;
}): MonitoringWiring {
  const config = loadMonitoringConfig(deps.env);
  const log = deps.log.child({ component: 'monitoring' });
  const repo = new SqliteMonitoringRepository(deps.relational);
  const imports = new SqliteImportRepository(deps.relational);
  const failures = new SqliteFailureRepository(deps.relational);
  const client = new PlatformAClient({ baseUrl: config.platformAUrl, timeoutMs: config.timeoutMs });
  // A replay makes one platform call, so a lease of twice the call timeout (at least a minute) outlives any live replay.
  const leaseMs = Math.max(60_000, 2 * config.timeoutMs + 5_000);
  const retryBaseMs = config.retryBaseMs;
  const importer = new AgentImporter({ client, imports, failures, conversations: deps.conversations, retryBaseMs, leaseMs });
  const scheduler = new ImportScheduler({
    setups: () => repo.pollableSetups(),
    run: setupRunner({ repo, imports, importer, sealer: deps.sealer, log }),
    pollMs: config.pollMs,
    concurrency: config.concurrency,
    log,
  });
  const receipts = new SpanReceiptTracker(repo, log);
  const service = new MonitoringService({ repo, imports, failures, conversations: deps.conversations, client, sealer: deps.sealer, leaseMs, retryBaseMs, scheduler, receipts, agentDirectory: deps.agentDirectory, log });
  return { service, routes: monitoringRoutes(service, deps.projects), tasks: [scheduler, receipts] };
}
