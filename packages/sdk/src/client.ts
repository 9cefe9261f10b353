import { type ClientOptions, Transport } from './core/transport.js';
import { AgentsResource, ConnectionsResource } from './resources/agents.js';
import { PersonaCapabilitiesResource, ProviderKeysResource } from './resources/capabilities.js';
import { ConversationsResource } from './resources/conversations.js';
import { HealthResource, KeysResource, MembersResource, ProjectsResource } from './resources/core.js';
import { PersonasResource } from './resources/personas.js';
import { RunsResource } from './resources/runs.js';
import { TestSuitesResource } from './resources/test-suites.js';
import { TestsResource } from './resources/tests.js';
import { TracesResource } from './resources/traces.js';
import { MonitoringResource } from './resources/monitoring.js';

/**
 * The svc client.
 * @example
 * const svc = new Svc({ apiKey: process.env.SVC_API_KEY, baseUrl: 'http://127.0.0.1:3100' });
 * for await (const key of await svc.keys.list()) console.log(key.looks_like);
 */
export class Svc {
  readonly transport: Transport;
  readonly health: HealthResource;
  readonly keys: KeysResource;
  readonly projects: ProjectsResource;
  readonly members: MembersResource;
  readonly conversations: ConversationsResource;
  readonly agents: AgentsResource;
  readonly connections: ConnectionsResource;
  readonly personaCapabilities: PersonaCapabilitiesResource;
  readonly providerKeys: ProviderKeysResource;
  readonly tests: TestsResource;
  readonly personas: PersonasResource;
  readonly testSuites: TestSuitesResource;
  readonly runs: RunsResource;
  readonly traces: TracesResource;
  readonly monitoring: MonitoringResource;

  constructor(options: ClientOptions = {}) {
    this.transport = new Transport(options);
    this.health = new HealthResource(this.transport);
    this.keys = new KeysResource(this.transport);
    this.projects = new ProjectsResource(this.transport);
    this.members = new MembersResource(this.transport);
    this.conversations = new ConversationsResource(this.transport);
    this.agents = new AgentsResource(this.transport);
    this.connections = new ConnectionsResource(this.transport);
    this.personaCapabilities = new PersonaCapabilitiesResource(this.transport);
    this.providerKeys = new ProviderKeysResource(this.transport);
    this.tests = new TestsResource(this.transport);
    this.personas = new PersonasResource(this.transport);
    this.testSuites = new TestSuitesResource(this.transport);
    this.runs = new RunsResource(this.transport);
    this.traces = new TracesResource(this.transport);
    this.monitoring = new MonitoringResource(this.transport);
  }
}
