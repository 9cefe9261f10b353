import type { ConnectionService } from '../agents/connection-service.js';
import type { AgentService } from '../agents/service.js';
import type { Route } from '../http/define-route.js';
import type { Logger } from '../logging/logger.js';
import type { PersonaRepository } from '../personas/repository.js';
import type { ProjectRepository } from '../projects/repository.js';
import type { RelationalStore } from '../storage/sqlite/connection.js';
import type { TestRepository } from '../test-authoring/repository.js';
import { loadRunsConfig } from './config.js';
import { RunNotifier } from './events.js';
import { RunExecutor } from './executor.js';
import { CallQueue } from './queue.js';
import { RunRepository } from './repository.js';
import { runRoutes } from './routes.js';
import { RunService } from './service.js';

export interface RunsWiringDeps {
  env: NodeJS.ProcessEnv;
  relational: RelationalStore;
  tests: TestRepository;
  personas: PersonaRepository;
  agents: AgentService;
  connections: ConnectionService;
  projects: ProjectRepository;
  log: Logger;
}

/**
 * Runs over the relational store: the routes, the executor (a background
 * task) and the notifier whose `drain` ends long-polls at shutdown.
 */
export function runs(deps: RunsWiringDeps) {
  const config = loadRunsConfig(deps.env);
  const notifier = new RunNotifier();
  const executor = new RunExecutor({ queue: new CallQueue(deps.relational), tests: deps.tests, connections: deps.connections, config, notifier, log: deps.log });
  const service = new RunService({
    runs: new RunRepository(deps.relational),
    tests: deps.tests,
    personas: deps.personas,
    agents: deps.agents,
    connections: deps.connections,
    projects: deps.projects,
    config,
    notifier,
    executor,
  });
  return { routes: runRoutes(service) as Route[], task: executor, drain: () => notifier.drain() };
}
