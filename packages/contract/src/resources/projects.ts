import { z } from 'zod';
import { Id, PageTokenQuery, Timestamp } from '../common.js';

export const ProjectObject = z
  .strictObject({
    id: z.string().describe('`prj_...`'),
    name: z.string(),
    createdAt: Timestamp,
  })
  .meta({ id: 'Project' });
export type ProjectObject = z.infer<typeof ProjectObject>;

export const GetProjectsQuery = PageTokenQuery;
export const GetProjectsResponse = z.strictObject({
  projects: z.array(ProjectObject),
  nextPageToken: z.string().nullable(),
});

/** Project names: unique in the organization; not shaped like an id so "id or name" stays unambiguous. */
export const ProjectName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^(?!prj_)[^\u0000-\u001f]+$/, 'must not start with prj_ or contain control characters');

export const PostProjectsBody = z.strictObject({ name: ProjectName });
export const ProjectResponse = z.strictObject({ project: ProjectObject });
export const ProjectIdParams = z.strictObject({ projectId: Id });
