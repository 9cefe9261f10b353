import type Koa from 'koa';
import { AgentService } from './agents/service.js';
import { ConnectionService } from './agents/connection-service.js';
import { SqliteConnectionRepository } from './agents/connection-repository.js';
import { SqliteAgentRepository } from './agents/repository.js';
import { agentRoutes } from './agents/routes.js';
import { createApp } from './app.js';
import { openSpeechCapabilities } from './capabilities/wiring.js';
import { type Config, integer } from './config.js';
import { conversationRoutes } from './conversations/routes.js';
import { DuckdbConversationRepository } from './conversations/repository.js';
import { healthRoutes } from './health/routes.js';
import type { Authenticator } from './http/auth.js';
import type { Route } from './http/define-route.js';
import { MemoryRateLimitStore } from './http/rate-limit.js';
import { keyRoutes } from './keys/routes.js';
import { SqliteKeyRepository } from './keys/repository.js';
import { KeyService } from './keys/service.js';
import { KeyUsageTracker } from './keys/usage-tracker.js';
import type { Logger } from './logging/logger.js';
import { agentMonitoringStatus } from './monitoring/agent-status.js';
import { createMonitoring } from './monitoring/wiring.js';
import type { MonitoringService } from './monitoring/service.js';
import { memberRoutes } from './members/routes.js';
import { SqliteUserRepository } from './members/repository.js';
import { openApiRoutes } from './openapi/routes.js';
import { projectRoutes } from './projects/routes.js';
import { SqliteProjectRepository } from './projects/repository.js';
import { SqliteSessionRepository } from './sessions/repository.js';
import { AnalyticsStore, defaultThreads } from './storage/duckdb/connection.js';
import { DataDirLock } from './storage/data-dir-lock.js';
import { Sealer } from './shared/sealing.js';
import { type SpanIngestListener, openTraceCapability } from './traces/index.js';
import { RelationalStore } from './storage/sqlite/connection.js';
import { runs as runsCapability } from './runs/wiring.js';
import { testAuthoring } from './test-authoring/wiring.js';

/** Work that runs beside request handling (pollers, executors); stopped before the stores close. */
export interface BackgroundTask {
  name: string;
  start(): void;
  stop(): Promise<void>;
}

/** Everything a running server holds. */
export interface Runtime {
  app: Koa;
  relational: RelationalStore;
  analytics: AnalyticsStore;
  keys: KeyService;
  monitoring: MonitoringService;
  /** Ends long-lived requests (run event long-polls) so that the HTTP server can close promptly. */
  drain(): void;
  close(): Promise<void>;
}

/** Repositories and services over the relational store, shared by the server and the host commands. */
export function relationalServices(relational: RelationalStore, log: Logger) {
  const keyRepository = new SqliteKeyRepository(relational);
  const projects = new SqliteProjectRepository(relational);
  const users = new SqliteUserRepository(relational);
  const sessions = new SqliteSessionRepository(relational);
  const keyUsage = new KeyUsageTracker(keyRepository, log);
  const keys = new KeyService(keyRepository, projects, keyUsage);
  return { keyRepository, projects, users, sessions, keyUsage, keys };
}

/**
 * Takes the data-directory lock, opens and migrates both stores, wires every
 * capability and returns the app. Nothing is written before the lock is held.
 */
export async function openRuntime(config: Config, log: Logger): Promise<Runtime> {
  const lock = DataDirLock.acquire(config.dataDir);
  let relational: RelationalStore | undefined;
  let analytics: AnalyticsStore | undefined;
  try {
    relational = RelationalStore.open(config.dataDir);
    analytics = await AnalyticsStore.open(config.dataDir, { threads: integer(config.env, 'SVC_ANALYTICS_THREADS', defaultThreads(), 1) });
    const sealer = Sealer.load(config.env, config.dataDir);
    const services = relationalServices(relational, log);
    // Agents render monitoring status and monitoring registers agents: the status source is bound late.
    let monitoringService: MonitoringService | undefined;
    const agents = new AgentService(new SqliteAgentRepository(relational), sealer, agentMonitoringStatus(() => monitoringService!));
    const connections = new ConnectionService(new SqliteConnectionRepository(relational), sealer);
    const speech = openSpeechCapabilities({ env: config.env, relational, sealer, projects: services.projects });
    const conversations = new DuckdbConversationRepository(analytics);
    const authoring = testAuthoring(relational, services.projects, speech.voiceValidator);
    const runs = runsCapability({
      env: config.env,
      relational,
      tests: authoring.repositories.tests,
      personas: authoring.repositories.personas,
      agents,
      connections,
      projects: services.projects,
      log,
    });
    // Told after every span commit; the monitoring capability's platform_b setup (last_received_at) is wired here.
    const spanIngestListeners: SpanIngestListener[] = [];
    const traces = await openTraceCapability({ analytics, conversations, env: config.env, log, listeners: spanIngestListeners });
    const monitoring = createMonitoring({ relational, conversations, projects: services.projects, sealer, env: config.env, log, agentDirectory: agents });
    monitoringService = monitoring.service;
    spanIngestListeners.push({ onSpansStored: (e) => monitoring.service.notePlatformBSpansReceived(e.projectId, e.receivedAt) });

    const authenticator: Authenticator = {
      fromApiKey: (secret) => services.keys.authenticate(secret),
      fromSessionToken: (token) => services.sessions.findPrincipal(token, new Date().toISOString()),
    };
    const routes: Route[] = [
      ...healthRoutes({ relational, analytics }),
      ...openApiRoutes(),
      ...keyRoutes(services.keys),
      ...projectRoutes(services.projects),
      ...memberRoutes(services.users),
      ...conversationRoutes(conversations, services.projects),
      ...agentRoutes(agents, connections, services.projects),
      ...speech.routes,
      ...authoring.routes,
      ...traces.routes,
      ...monitoring.routes,
      ...runs.routes,
    ];
    const tasks: BackgroundTask[] = [...traces.tasks, ...monitoring.tasks, runs.task];

    const app = createApp({
      log,
      routes,
      authenticator,
      rateLimitStore: new MemoryRateLimitStore(),
      rateLimitPerMinute: config.rateLimitPerMinute,
      strictResponses: config.strictResponses,
      recordResponsesDir: config.recordResponsesDir,
      onPrincipal: (p) => p.keyId && services.keys.noteUse(p.keyId),
    });
    services.keyUsage.start(config.keyUsageFlushMs);
    for (const task of tasks) task.start();

    const rel = relational;
    const ana = analytics;
    return {
      app,
      relational: rel,
      analytics: ana,
      keys: services.keys,
      monitoring: monitoring.service,
      drain: () => runs.drain(),
      async close() {
        for (const task of tasks) await task.stop();
        await services.keyUsage.stop();
        await ana.close();
        rel.close();
        lock.release();
      },
    };
  } catch (err) {
    await analytics?.close().catch(() => undefined);
    relational?.close();
    lock.release();
    throw err;
  }
}
