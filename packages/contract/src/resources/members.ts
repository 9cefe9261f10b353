import { z } from 'zod';
import { Id, PageTokenQuery, Role, Timestamp } from '../common.js';

export const MemberObject = z
  .strictObject({
    userId: z.string().describe('`usr_...`'),
    email: z.string(),
    role: Role,
    createdAt: Timestamp,
  })
  .meta({ id: 'Member' });
export type MemberObject = z.infer<typeof MemberObject>;

export const Email = z.string().trim().toLowerCase().max(320).pipe(z.email());

export const GetMembersQuery = PageTokenQuery;
export const GetMembersResponse = z.strictObject({
  members: z.array(MemberObject),
  nextPageToken: z.string().nullable(),
});
export const PostMembersBody = z.strictObject({ email: Email, role: Role });
export const PatchMemberBody = z.strictObject({ role: Role });
export const MemberResponse = z.strictObject({ member: MemberObject });
export const MemberIdParams = z.strictObject({ userId: Id });
