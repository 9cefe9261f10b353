import type { KeyService } from '../keys/service.js';
import type { RelationalStore } from '../storage/sqlite/connection.js';
import { isUniqueViolation } from '../storage/sqlite/keyset.js';
import { newId, nowIso } from '../shared/ids.js';

/** What creating an organization prints: its ids and the admin key's secret (shown once). */
export interface BootstrapResult {
  organization_id: string;
  project_id: string;
  user_id: string;
  api_key: string;
}

/** Why `createOrganization` refused. */
export type CreateOrganizationRefusal = 'already_bootstrapped' | 'email_taken';

/**
 * Creates an organization with its admin user, the project `default` and an
 * org-wide admin key. The organization, user and project are written in one
 * immediate transaction; the key is minted after it, so a crash in between
 * leaves an organization whose admin can still get a key with
 * `svc-server keys create`. With `onlyIfEmpty` (the bootstrap) nothing is
 * written when any organization exists. Emails are unique across the
 * instance, so an email that already has a user is refused.
 */
export async function createOrganization(
  store: RelationalStore,
  keys: KeyService,
  input: { name: string; adminEmail: string; keyName: string; onlyIfEmpty?: boolean },
): Promise<BootstrapResult | CreateOrganizationRefusal> {
  let created: { organization: string; user: string; project: string } | CreateOrganizationRefusal;
  try {
    created = store.immediate(() => {
      const db = store.db;
      if (input.onlyIfEmpty && db.prepare('SELECT 1 FROM organizations LIMIT 1').get()) return 'already_bootstrapped' as const;
      const at = nowIso();
      const ids = { organization: newId('org_'), user: newId('usr_'), project: newId('prj_') };
      db.prepare('INSERT INTO organizations (id, name, created_at) VALUES (?, ?, ?)').run(ids.organization, input.name, at);
      db.prepare("INSERT INTO users (id, organization_id, email, role, created_at) VALUES (?, ?, ?, 'admin', ?)").run(ids.user, ids.organization, input.adminEmail.trim().toLowerCase(), at);
      db.prepare("INSERT INTO projects (id, organization_id, name, created_at) VALUES (?, ?, 'default', ?)").run(ids.project, ids.organization, at);
      return ids;
    });
  } catch (err) {
    if (isUniqueViolation(err)) return 'email_taken';
    throw err;
  }
  if (typeof created === 'string') return created;
  const key = await keys.mint({ organizationId: created.organization, projectId: null, name: input.keyName, createdByUserId: created.user });
  return { organization_id: created.organization, project_id: created.project, user_id: created.user, api_key: key.secret };
}

/**
 * Creates the first organization (named `default`), its admin user, the
 * `default` project and an org-wide admin key, once. Returns null when the
 * store is already bootstrapped.
 */
export async function bootstrapInstance(store: RelationalStore, keys: KeyService, adminEmail: string): Promise<BootstrapResult | null> {
  const result = await createOrganization(store, keys, { name: 'default', adminEmail, keyName: 'bootstrap admin', onlyIfEmpty: true });
  if (typeof result === 'string') return null; // an empty store has no user, so the email cannot be taken
  return result;
}

/** The single organization of a self-hosted instance (host commands default to it). */
export function onlyOrganizationId(store: RelationalStore): string | null {
  const rows = store.db.prepare('SELECT id FROM organizations ORDER BY seq LIMIT 2').all() as { id: string }[];
  return rows.length === 1 ? rows[0]!.id : null;
}

/** Whether an organization exists (a host command's `--organization`). */
export function organizationExists(store: RelationalStore, organizationId: string): boolean {
  return Boolean(store.db.prepare('SELECT 1 FROM organizations WHERE id = ?').get(organizationId));
}
