import type { Role } from '@svc/contract';
import { notPermitted } from './errors.js';

/** Who is calling: resolved from an API key or a session, with the user's *current* role. */
export interface Principal {
  organizationId: string;
  userId: string;
  role: Role;
  /** Set for a project-scoped key: every operation is confined to this project. */
  projectId: string | null;
  keyId: string | null;
  via: 'api_key' | 'session';
}

/** Refuses viewers: they read only. */
export function requireWriter(principal: Principal): void {
  if (principal.role === 'viewer') throw notPermitted('This credential has the viewer role, which can only read.');
}

/** Refuses anyone but an admin. */
export function requireAdmin(principal: Principal): void {
  if (principal.role !== 'admin') throw notPermitted('Only organization admins can do this.');
}

/** Refuses project-scoped keys (organization management, org-wide reads). */
export function requireOrgWide(principal: Principal): void {
  if (principal.projectId) throw notPermitted('A project-scoped key cannot manage or read organization-wide resources.');
}

/** The scope a by-id lookup may search: the key's project, or the whole organization. */
export interface LookupScope {
  organizationId: string;
  projectId: string | null;
}

export function lookupScope(principal: Principal): LookupScope {
  return { organizationId: principal.organizationId, projectId: principal.projectId };
}
