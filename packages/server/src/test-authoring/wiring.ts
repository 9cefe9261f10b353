import type { Route } from '../http/define-route.js';
import { personaRoutes } from '../personas/routes.js';
import { SqlitePersonaRepository } from '../personas/repository.js';
import { PersonaService } from '../personas/service.js';
import type { PersonaVoiceValidator } from '../personas/voice-validator.js';
import type { ProjectRepository } from '../projects/repository.js';
import type { RelationalStore } from '../storage/sqlite/connection.js';
import { testSuiteRoutes } from '../test-suites/routes.js';
import { SqliteSuiteRepository } from '../test-suites/repository.js';
import { SuiteService } from '../test-suites/service.js';
import { testRoutes } from './routes.js';
import { SqliteTestRepository } from './repository.js';
import { TestService } from './service.js';

/**
 * Tests, personas and suites over the relational store, with their routes.
 * `voices` checks persona voice settings (the capabilities lookup plugs in here).
 */
export function testAuthoring(relational: RelationalStore, projects: ProjectRepository, voices: PersonaVoiceValidator) {
  const repositories = {
    tests: new SqliteTestRepository(relational),
    personas: new SqlitePersonaRepository(relational),
    suites: new SqliteSuiteRepository(relational),
  };
  const services = {
    tests: new TestService(repositories.tests, repositories.personas, projects),
    personas: new PersonaService(repositories.personas, projects, voices),
    suites: new SuiteService(repositories.suites, repositories.tests, projects),
  };
  const routes: Route[] = [...testRoutes(services.tests), ...personaRoutes(services.personas), ...testSuiteRoutes(services.suites)];
  return { repositories, services, routes };
}
