import { type ClientOptions, Transport } from './core/transport.js';
import { ConversationsResource } from './resources/conversations.js';
import { HealthResource, KeysResource, MembersResource, ProjectsResource } from './resources/core.js';
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
  readonly monitoring: MonitoringResource;

  constructor(options: ClientOptions = {}) {
    this.transport = new Transport(options);
    this.health = new HealthResource(this.transport);
    this.keys = new KeysResource(this.transport);
    this.projects = new ProjectsResource(this.transport);
    this.members = new MembersResource(this.transport);
    this.conversations = new ConversationsResource(this.transport);
    this.monitoring = new MonitoringResource(this.transport);
  }
}
