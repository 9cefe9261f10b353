import type { KeyService } from '../keys/service.js';
import type { RelationalStore } from '../storage/sqlite/connection.js';
import { newId, nowIso } from '../shared/ids.js';

export interface BootstrapResult {
  organization_id: string;
  project_id: string;
  user_id: string;
  api_key: string;
}

/**
 * Creates the first organization, its admin user, the `default` project and an
 * org-wide admin key, once. Returns null when the store is already bootstrapped.
 * The organization, user and project are written in one immediate transaction;
 * the key is minted after it, so a crash in between leaves a bootstrapped
 * instance whose admin can still get a key with `svc-server keys create`.
 */
export async function bootstrapInstance(store: RelationalStore, keys: KeyService, adminEmail: string): Promise<BootstrapResult | null> {
  const created = store.immediate(() => {
    const db = store.db;
    if (db.prepare('SELECT 1 FROM organizations LIMIT 1').get()) return null;
    const at = nowIso();
    const ids = { organization: newId('org_'), user: newId('usr_'), project: newId('prj_') };
    db.prepare('INSERT INTO organizations (id, name, created_at) VALUES (?, ?, ?)').run(ids.organization, 'default', at);
    db.prepare("INSERT INTO users (id, organization_id, email, role, created_at) VALUES (?, ?, ?, 'admin', ?)").run(ids.user, ids.organization, adminEmail.toLowerCase(), at);
    db.prepare("INSERT INTO projects (id, organization_id, name, created_at) VALUES (?, ?, 'default', ?)").run(ids.project, ids.organization, at);
    return ids;
  });
  if (!created) return null;
  const key = await keys.mint({ organizationId: created.organization, projectId: null, name: 'bootstrap admin', createdByUserId: created.user });
  return { organization_id: created.organization, project_id: created.project, user_id: created.user, api_key: key.secret };
}

/** The single organization of a self-hosted instance (host commands default to it). */
export function onlyOrganizationId(store: RelationalStore): string | null {
  const rows = store.db.prepare('SELECT id FROM organizations ORDER BY seq LIMIT 2').all() as { id: string }[];
  return rows.length === 1 ? rows[0]!.id : null;
}
