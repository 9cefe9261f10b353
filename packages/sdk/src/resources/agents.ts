import {
  type AgentObject,
  type BodyInputOf,
  type ConnectionObject,
  archiveAgent,
  archiveConnection,
  createConnection,
  getAgent,
  getConnection,
  listAgents,
  listConnections,
  registerAgent,
  restoreAgent,
  restoreConnection,
} from '@svc/contract';
import { PagedList } from '../core/pagination.js';
import type { Transport } from '../core/transport.js';

/** Selects the project for an org-wide credential; a project key may omit it. */
export interface ProjectOption {
  projectId?: string;
}

export interface ListOptions extends ProjectOption {
  pageSize?: number;
  includeArchived?: boolean;
}

const scope = (o: ProjectOption) => (o.projectId ? { projectId: o.projectId } : {});

/** Agents of a project. */
export class AgentsResource {
  constructor(private readonly t: Transport) {}

  async register(body: BodyInputOf<typeof registerAgent>, options: ProjectOption = {}): Promise<AgentObject> {
    return (await this.t.request(registerAgent, { query: scope(options), body })).agent;
  }

  /** Newest first, every page: `for await (const a of svc.agents.list({ includeArchived: true }))`. */
  list(options: ListOptions = {}): PagedList<AgentObject> {
    return new PagedList(async (pageToken) => {
      const page = await this.t.request(listAgents, { query: { ...scope(options), pageSize: options.pageSize, includeArchived: options.includeArchived, pageToken } });
      return { items: page.agents, next: page.nextPageToken };
    });
  }

  async get(agentId: string, options: ProjectOption = {}): Promise<AgentObject> {
    return (await this.t.request(getAgent, { params: { agentId }, query: scope(options) })).agent;
  }

  /** Archives an agent (idempotent). */
  async archive(agentId: string, options: ProjectOption = {}): Promise<AgentObject> {
    return (await this.t.request(archiveAgent, { params: { agentId }, query: scope(options), body: {}, idempotent: true })).agent;
  }

  /** Restores an archived agent, renamed when `name` is given; `ConflictError` (`name_taken`, `not_archived`) otherwise. */
  async restore(agentId: string, options: ProjectOption & { name?: string } = {}): Promise<AgentObject> {
    const body = options.name ? { name: options.name } : {};
    return (await this.t.request(restoreAgent, { params: { agentId }, query: scope(options), body })).agent;
  }
}

/** Connections of an agent: how svc reaches it. Credentials go in once and come back only as a hint. */
export class ConnectionsResource {
  constructor(private readonly t: Transport) {}

  async create(agentId: string, body: BodyInputOf<typeof createConnection>, options: ProjectOption = {}): Promise<ConnectionObject> {
    return (await this.t.request(createConnection, { params: { agentId }, query: scope(options), body })).connection;
  }

  list(agentId: string, options: ListOptions = {}): PagedList<ConnectionObject> {
    return new PagedList(async (pageToken) => {
      const page = await this.t.request(listConnections, {
        params: { agentId },
        query: { ...scope(options), pageSize: options.pageSize, includeArchived: options.includeArchived, pageToken },
      });
      return { items: page.connections, next: page.nextPageToken };
    });
  }

  async get(agentId: string, connectionId: string, options: ProjectOption = {}): Promise<ConnectionObject> {
    return (await this.t.request(getConnection, { params: { agentId, connectionId }, query: scope(options) })).connection;
  }

  async archive(agentId: string, connectionId: string, options: ProjectOption = {}): Promise<ConnectionObject> {
    return (await this.t.request(archiveConnection, { params: { agentId, connectionId }, query: scope(options), body: {}, idempotent: true })).connection;
  }

  /** Restores an archived connection; `ConflictError` with `agent_archived` while its agent is archived. */
  async restore(agentId: string, connectionId: string, options: ProjectOption & { name?: string } = {}): Promise<ConnectionObject> {
    const body = options.name ? { name: options.name } : {};
    return (await this.t.request(restoreConnection, { params: { agentId, connectionId }, query: scope(options), body })).connection;
  }
}
