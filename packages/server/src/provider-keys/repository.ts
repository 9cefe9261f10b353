import type { KeyedProvider } from '@svc/contract';
import type { RelationalStore } from '../storage/sqlite/connection.js';

export interface ProviderKeyRecord {
  organizationId: string;
  provider: KeyedProvider;
  /** Sealed with the context `provider_key:<organizationId>:<provider>`. */
  apiKeySealed: string;
  apiKeyHint: string;
  updatedByUserId: string;
  createdAt: string;
  updatedAt: string;
}

export interface ProviderKeyRepository {
  /** Stores or replaces the organization's key for the provider, keeping the first `createdAt`. */
  upsert(record: ProviderKeyRecord): Promise<ProviderKeyRecord>;
  find(organizationId: string, provider: KeyedProvider): Promise<ProviderKeyRecord | null>;
  list(organizationId: string): Promise<ProviderKeyRecord[]>;
  /** False when there was no key. */
  remove(organizationId: string, provider: KeyedProvider): Promise<boolean>;
}

interface Row {
  organization_id: string;
  provider: KeyedProvider;
  api_key_sealed: string;
  api_key_hint: string;
  updated_by_user_id: string;
  created_at: string;
  updated_at: string;
}

const toRecord = (r: Row): ProviderKeyRecord => ({
  organizationId: r.organization_id,
  provider: r.provider,
  apiKeySealed: r.api_key_sealed,
  apiKeyHint: r.api_key_hint,
  updatedByUserId: r.updated_by_user_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Provider keys in the relational store, one per organization and provider. */
export class SqliteProviderKeyRepository implements ProviderKeyRepository {
  constructor(private readonly store: RelationalStore) {}

  async upsert(k: ProviderKeyRecord): Promise<ProviderKeyRecord> {
    return this.store.immediate(() => {
      this.store.db
        .prepare(
          `INSERT INTO provider_keys (organization_id, provider, api_key_sealed, api_key_hint, updated_by_user_id, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (organization_id, provider) DO UPDATE SET
             api_key_sealed = excluded.api_key_sealed, api_key_hint = excluded.api_key_hint,
             updated_by_user_id = excluded.updated_by_user_id, updated_at = excluded.updated_at`,
        )
        .run(k.organizationId, k.provider, k.apiKeySealed, k.apiKeyHint, k.updatedByUserId, k.createdAt, k.updatedAt);
      return this.findSync(k.organizationId, k.provider)!;
    });
  }

  async find(organizationId: string, provider: KeyedProvider): Promise<ProviderKeyRecord | null> {
    return this.findSync(organizationId, provider);
  }

  async list(organizationId: string): Promise<ProviderKeyRecord[]> {
    const rows = this.store.db.prepare('SELECT * FROM provider_keys WHERE organization_id = ? ORDER BY provider').all(organizationId) as Row[];
    return rows.map(toRecord);
  }

  async remove(organizationId: string, provider: KeyedProvider): Promise<boolean> {
    return this.store.db.prepare('DELETE FROM provider_keys WHERE organization_id = ? AND provider = ?').run(organizationId, provider).changes > 0;
  }

  private findSync(organizationId: string, provider: KeyedProvider): ProviderKeyRecord | null {
    const row = this.store.db.prepare('SELECT * FROM provider_keys WHERE organization_id = ? AND provider = ?').get(organizationId, provider) as Row | undefined;
    return row ? toRecord(row) : null;
  }
}
