import {
  type ApiKeyObject,
  type BodyInputOf,
  type CreatedApiKeyObject,
  type HealthResponse,
  type MemberObject,
  type ProjectObject,
  type Role,
  addMember,
  createKey,
  createProject,
  getHealth,
  listKeys,
  listMembers,
  listProjects,
  revokeKey,
  updateMember,
} from '@svc/contract';
import { ConnectionError, SvcError } from '../core/errors.js';
import { PagedList } from '../core/pagination.js';
import type { Transport } from '../core/transport.js';

/** `GET /health` (no credential). */
export class HealthResource {
  constructor(private readonly t: Transport) {}

  /** The health body for 200 and 503 alike (a 503 names the unreachable store); throws `ConnectionError` when the server cannot be reached. */
  async check(): Promise<HealthResponse & { httpStatus: number }> {
    let response: Response;
    try {
      response = await fetch(`${this.t.baseUrl}/health`);
    } catch (err) {
      throw new ConnectionError(`could not reach ${this.t.baseUrl}: ${(err as Error).message}`, err);
    }
    const parsed = getHealth.response.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success) throw new SvcError(`unexpected health response (HTTP ${response.status})`, response.status, 'invalid_response', undefined, response.headers.get('x-request-id') ?? undefined);
    return { ...parsed.data, httpStatus: response.status };
  }
}

/** API keys. */
export class KeysResource {
  constructor(private readonly t: Transport) {}

  /** Creates a key; the secret is in this result only. */
  create(body: BodyInputOf<typeof createKey> = {}): Promise<CreatedApiKeyObject> {
    return this.t.request(createKey, { body });
  }

  async list(): Promise<ApiKeyObject[]> {
    return (await this.t.request(listKeys)).keys;
  }

  /** Revokes a key; effective on the very next request. */
  revoke(apiKeyId: string): Promise<ApiKeyObject> {
    return this.t.request(revokeKey, { params: { apiKeyId }, idempotent: true });
  }
}

/** Projects of the organization. */
export class ProjectsResource {
  constructor(private readonly t: Transport) {}

  /** Every project, page by page: `for await (const p of svc.projects.list())`. */
  list(options: { pageSize?: number } = {}): PagedList<ProjectObject> {
    return new PagedList(async (pageToken) => {
      const page = await this.t.request(listProjects, { query: { pageSize: options.pageSize, pageToken } });
      return { items: page.projects, next: page.nextPageToken };
    });
  }

  async create(name: string): Promise<ProjectObject> {
    return (await this.t.request(createProject, { body: { name } })).project;
  }
}

/** Members of the organization (admins). */
export class MembersResource {
  constructor(private readonly t: Transport) {}

  list(options: { pageSize?: number } = {}): PagedList<MemberObject> {
    return new PagedList(async (pageToken) => {
      const page = await this.t.request(listMembers, { query: { pageSize: options.pageSize, pageToken } });
      return { items: page.members, next: page.nextPageToken };
    });
  }

  async add(email: string, role: Role): Promise<MemberObject> {
    return (await this.t.request(addMember, { body: { email, role } })).member;
  }

  async setRole(userId: string, role: Role): Promise<MemberObject> {
    return (await this.t.request(updateMember, { params: { userId }, body: { role }, idempotent: true })).member;
  }
}
