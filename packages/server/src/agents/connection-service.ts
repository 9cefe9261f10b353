import type { ConnectionObject, PostConnectionsBody } from '@svc/contract';
import { AppError, notFound } from '../http/errors.js';
import type { LookupScope } from '../http/principal.js';
import type { Sealer } from '../shared/sealing.js';
import { newId, nowIso } from '../shared/ids.js';
import type { Page } from '../storage/sqlite/keyset.js';
import type { ConnectionRecord, ConnectionRepository } from './connection-repository.js';
import { credentialsHint, resolveConnection } from './connection-rules.js';
import { restoreRefusal } from './service.js';

/** The sealing context of a connection's credentials: binds the ciphertext to the row. */
export const credentialsContext = (connectionId: string) => `connection:${connectionId}:credentials`;

/** A connection with its opened credentials: for server-side callers (runs) only, never on the wire. */
export interface OpenedConnection {
  connection: ConnectionRecord;
  credentials: Record<string, string>;
}

/** Agent connections: creation with sealed credentials, listing, archive and restore. */
export class ConnectionService {
  constructor(
    private readonly connections: ConnectionRepository,
    private readonly sealer: Sealer,
  ) {}

  async create(scope: LookupScope & { projectId: string }, agentId: string, body: PostConnectionsBody): Promise<ConnectionObject> {
    const resolved = resolveConnection(body);
    const id = newId('con_');
    const at = nowIso();
    const outcome = await this.connections.insert(scope, {
      id,
      organizationId: scope.organizationId,
      projectId: scope.projectId,
      agentId,
      name: body.name,
      connectionType: body.connectionType,
      accessVariant: resolved.accessVariant,
      modality: resolved.modality,
      productLabel: resolved.productLabel,
      topology: resolved.topology,
      environment: resolved.environment,
      config: resolved.config,
      credentialsSealed: resolved.credentials ? this.sealer.seal(JSON.stringify(resolved.credentials), credentialsContext(id)) : null,
      credentialsHint: credentialsHint(resolved.credentials),
      createdAt: at,
      updatedAt: at,
      archivedAt: null,
    });
    if (!outcome.ok) {
      if (outcome.reason === 'agent_not_found') throw notFound('agent');
      if (outcome.reason === 'agent_archived') throw new AppError('agent_archived', 'The agent is archived; restore it before adding connections.');
      throw new AppError('name_taken', `An active connection of this agent is already named "${body.name}".`, { name: body.name });
    }
    return toConnectionObject(outcome.record);
  }

  async list(agent: { organizationId: string; agentId: string }, includeArchived: boolean, page: { afterId?: string | undefined; limit: number }): Promise<Page<ConnectionObject>> {
    const found = await this.connections.list(agent, includeArchived, page);
    return { items: found.items.map(toConnectionObject), next: found.next };
  }

  async get(scope: LookupScope, agentId: string, connectionId: string): Promise<ConnectionObject> {
    const found = await this.connections.find(scope, agentId, connectionId);
    if (!found) throw notFound('connection');
    return toConnectionObject(found);
  }

  async archive(scope: LookupScope, agentId: string, connectionId: string): Promise<ConnectionObject> {
    const archived = await this.connections.archive(scope, agentId, connectionId, nowIso());
    if (!archived) throw notFound('connection');
    return toConnectionObject(archived);
  }

  async restore(scope: LookupScope, agentId: string, connectionId: string, name: string | undefined): Promise<ConnectionObject> {
    const outcome = await this.connections.restore(scope, agentId, connectionId, name, nowIso());
    if (!outcome.ok) throw restoreRefusal(outcome, 'connection', name);
    return toConnectionObject(outcome.record);
  }

  /**
   * A connection and its opened credentials (`{}` when it has none), found by
   * id within the scope; null when invisible. For runs, which reach the agent
   * server-side. Never return the result on the wire or write it to a log.
   */
  async open(scope: LookupScope, connectionId: string): Promise<OpenedConnection | null> {
    const connection = await this.connections.findById(scope, connectionId);
    if (!connection) return null;
    const credentials = connection.credentialsSealed
      ? (JSON.parse(this.sealer.open(connection.credentialsSealed, credentialsContext(connection.id))) as Record<string, string>)
      : {};
    return { connection, credentials };
  }
}

/** The wire form of a connection: secrets reduced to presence and hint. */
export function toConnectionObject(r: ConnectionRecord): ConnectionObject {
  return {
    id: r.id,
    agentId: r.agentId,
    projectId: r.projectId,
    name: r.name,
    agentPlatform: r.agentPlatform,
    connectionType: r.connectionType,
    accessVariant: r.accessVariant,
    modality: r.modality,
    productLabel: r.productLabel,
    topology: r.topology,
    environment: r.environment,
    config: r.config,
    credentialPresent: r.credentialsSealed !== null,
    credentialsHint: r.credentialsHint,
    archived: r.archivedAt !== null,
    archivedAt: r.archivedAt,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}
