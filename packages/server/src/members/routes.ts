import { type MemberObject, addMember, listMembers, updateMember } from '@svc/contract';
import { AppError, notFound } from '../http/errors.js';
import { type Route, defineRoute } from '../http/define-route.js';
import { type Principal, requireAdmin, requireOrgWide } from '../http/principal.js';
import { newId, nowIso } from '../shared/ids.js';
import type { UserRecord, UserRepository } from './repository.js';

const toObject = (u: UserRecord): MemberObject => ({ userId: u.id, email: u.email, role: u.role, createdAt: u.createdAt });

function requireOrgAdmin(principal: Principal): void {
  requireOrgWide(principal);
  requireAdmin(principal);
}

/** `/v1/members`: organization admins with an org-wide credential. */
export function memberRoutes(users: UserRepository): Route[] {
  return [
    defineRoute(listMembers, async ({ principal, query }) => {
      requireOrgAdmin(principal);
      const page = await users.list(principal.organizationId, { afterId: query.pageToken, limit: query.pageSize ?? 50 });
      return { members: page.items.map(toObject), nextPageToken: page.next };
    }),
    defineRoute(addMember, async ({ principal, body }) => {
      requireOrgAdmin(principal);
      const created = await users.create({ id: newId('usr_'), organizationId: principal.organizationId, email: body.email, role: body.role, createdAt: nowIso() });
      if (!created) throw new AppError('email_taken', `A user with the email ${body.email} already exists.`);
      return { member: toObject(created) };
    }),
    defineRoute(updateMember, async ({ principal, params, body }) => {
      requireOrgAdmin(principal);
      const outcome = await users.setRole(principal.organizationId, params.userId, body.role);
      if (!outcome.ok && outcome.reason === 'not_found') throw notFound('member');
      if (!outcome.ok) throw new AppError('last_admin', 'This is the organization\'s last admin; promote another member first.');
      return { member: toObject(outcome.user) };
    }),
  ];
}
