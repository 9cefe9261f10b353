import type { ApiKeyObject, CreatedApiKeyObject, PostKeysBody } from '@svc/contract';
import { notFound, notPermitted } from '../http/errors.js';
import type { Principal } from '../http/principal.js';
import { requireWriter } from '../http/principal.js';
import type { ProjectRepository } from '../projects/repository.js';
import { newId, nowIso } from '../shared/ids.js';
import type { KeyRecord, KeyRepository, KeyVisibility } from './repository.js';
import { KEY_PATTERN, generateSecret, hashSecret, looksLike, sameHash } from './secret.js';
import type { KeyUsageTracker } from './usage-tracker.js';

/** What a creation needs once the caller's rights are checked. */
export interface NewKey {
  organizationId: string;
  projectId: string | null;
  name: string | null;
  createdByUserId: string;
}

/** API keys: minting, authentication, visibility and revocation. */
export class KeyService {
  constructor(
    private readonly keys: KeyRepository,
    private readonly projects: ProjectRepository,
    private readonly usage: KeyUsageTracker,
  ) {}

  /** Resolves a presented secret to its principal; null for malformed, unknown or revoked keys. */
  async authenticate(secret: string): Promise<Principal | null> {
    if (!KEY_PATTERN.test(secret)) return null;
    const hash = hashSecret(secret);
    const key = await this.keys.findByHash(hash);
    if (!key || !sameHash(key.secretHash, hash) || key.revokedAt) return null;
    return {
      organizationId: key.organizationId,
      userId: key.createdByUserId,
      role: key.creatorRole,
      projectId: key.projectId,
      keyId: key.id,
      via: 'api_key',
    };
  }

  /** Notes a successful use (written in the next coalesced batch). */
  noteUse(keyId: string): void {
    this.usage.note(keyId);
  }

  /** Mints a key without caller checks: for the server host's own commands and bootstrap. */
  async mint(input: NewKey): Promise<CreatedApiKeyObject> {
    const secret = generateSecret();
    const record: KeyRecord = {
      id: newId('key_'),
      organizationId: input.organizationId,
      projectId: input.projectId,
      name: input.name,
      looksLike: looksLike(secret),
      createdByUserId: input.createdByUserId,
      createdAt: nowIso(),
      lastUsedAt: null,
      revokedAt: null,
    };
    await this.keys.insert(record, hashSecret(secret));
    return { ...this.toObject(record), secret };
  }

  /** `POST /api/keys` with the rules of Authentication 5 and 6. */
  async create(principal: Principal, body: PostKeysBody): Promise<CreatedApiKeyObject> {
    requireWriter(principal);
    let projectId: string | null = null;
    if (principal.projectId) {
      if (body.project_id === undefined) {
        throw notPermitted('A project-scoped key can only create keys for its own project; send its id as project_id.');
      }
      const named = await this.projects.findByRef(principal.organizationId, body.project_id);
      if (!named || named.id !== principal.projectId) throw notPermitted('A project-scoped key cannot create keys for another project.');
      projectId = named.id;
    } else if (body.project_id !== undefined) {
      const project = await this.projects.findByRef(principal.organizationId, body.project_id);
      if (!project) throw notFound('project');
      projectId = project.id;
    }
    return this.mint({ organizationId: principal.organizationId, projectId, name: body.name ?? null, createdByUserId: principal.userId });
  }

  async list(principal: Principal): Promise<ApiKeyObject[]> {
    const records = await this.keys.list(this.visibility(principal));
    return records.map((r) => this.toObject(r));
  }

  async revoke(principal: Principal, keyId: string): Promise<ApiKeyObject> {
    requireWriter(principal);
    const record = await this.keys.revoke(this.visibility(principal), keyId, nowIso());
    if (!record) throw notFound('API key');
    return this.toObject(record);
  }

  /** Admins see the organization's keys; others their own. A project key never sees beyond its project. */
  private visibility(principal: Principal): KeyVisibility {
    return {
      organizationId: principal.organizationId,
      projectId: principal.projectId,
      ...(principal.role === 'admin' ? {} : { createdByUserId: principal.userId }),
    };
  }

  private toObject(r: KeyRecord): ApiKeyObject {
    const pending = this.usage.pendingFor(r.id);
    const lastUsed = pending && (!r.lastUsedAt || pending > r.lastUsedAt) ? pending : r.lastUsedAt;
    return {
      id: r.id,
      name: r.name,
      scope: r.projectId ? 'project' : 'organization',
      organization_id: r.organizationId,
      project_id: r.projectId,
      looks_like: r.looksLike,
      created_by_user_id: r.createdByUserId,
      created_at: r.createdAt,
      last_used_at: lastUsed,
      revoked_at: r.revokedAt,
    };
  }
}
