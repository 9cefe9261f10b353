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
import { PagedList } from '../core/pagination.js';
import type { Transport } from '../core/transport.js';

/** `GET /health`. Resolves for 200; a 503 throws `ServiceUnavailableError` whose `details` is empty — use `check()` to read both states. */
export class HealthResource {
  constructor(private readonly t: Transport) {}

  /** The health body, for 200 and 503 alike. */
  async check(): Promise<HealthResponse & { httpStatus: number }> {
    const response = await fetch(`${this.t.baseUrl}/health`);
    const body = getHealth.response.parse(await response.json());
    return { ...body, httpStatus: response.status };
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
