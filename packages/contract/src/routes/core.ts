import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { HealthResponse } from '../resources/health.js';
import { ApiKeyObject, CreatedApiKeyObject, GetKeysResponse, KeyIdParams, PostKeysBody } from '../resources/keys.js';
import { GetProjectsQuery, GetProjectsResponse, PostProjectsBody, ProjectResponse } from '../resources/projects.js';
import {
  GetMembersQuery,
  GetMembersResponse,
  MemberIdParams,
  MemberResponse,
  PatchMemberBody,
  PostMembersBody,
} from '../resources/members.js';

export const getHealth = defineOperation({
  operationId: 'getHealth',
  method: 'get',
  path: '/health',
  tag: 'Health',
  summary: 'Reachability of the relational and analytics stores',
  description: 'Runs a real query on each store. 200 when both answer, 503 (same body shape) otherwise. No credential.',
  auth: 'none',
  status: 200,
  response: HealthResponse,
  otherResponses: { 503: { description: 'A store is unreachable; the body names which.', schema: HealthResponse } },
});

export const getOpenApi = defineOperation({
  operationId: 'getOpenApi',
  method: 'get',
  path: '/openapi.json',
  tag: 'Meta',
  summary: 'This OpenAPI 3.1 document',
  description: 'Like every path but /health, it needs an API key.',
  auth: 'key',
  status: 200,
  response: z.record(z.string(), z.unknown()),
});

export const createKey = defineOperation({
  operationId: 'createKey',
  method: 'post',
  path: '/api/keys',
  tag: 'API keys',
  summary: 'Create an API key',
  description:
    'The secret is in this response only. Omit `project_id` for an org-wide key. A project-scoped credential can only create keys for its own project and must name it.',
  auth: 'key',
  body: PostKeysBody,
  status: 201,
  response: CreatedApiKeyObject,
  errors: { 404: ['not_found'] },
});

export const listKeys = defineOperation({
  operationId: 'listKeys',
  method: 'get',
  path: '/api/keys',
  tag: 'API keys',
  summary: 'List API keys',
  description: 'Admins see every key of the organization; other roles only keys they created. A project key sees only its project\'s keys.',
  auth: 'key',
  status: 200,
  response: GetKeysResponse,
});

export const revokeKey = defineOperation({
  operationId: 'revokeKey',
  method: 'post',
  path: '/api/keys/{apiKeyId}/revoke',
  tag: 'API keys',
  summary: 'Revoke an API key',
  description: 'Takes effect on the very next request. Returns the final key record. Revoking a revoked key returns it unchanged.',
  auth: 'key',
  params: KeyIdParams,
  status: 200,
  response: ApiKeyObject,
  errors: { 404: ['not_found'] },
});

export const listProjects = defineOperation({
  operationId: 'listProjects',
  method: 'get',
  path: '/v1/projects',
  tag: 'Organization',
  summary: 'List the organization\'s projects',
  description: 'Org-wide credentials only; a project-scoped key gets 403.',
  auth: 'key_or_session',
  query: GetProjectsQuery,
  status: 200,
  response: GetProjectsResponse,
});

export const createProject = defineOperation({
  operationId: 'createProject',
  method: 'post',
  path: '/v1/projects',
  tag: 'Organization',
  summary: 'Create a project (admins)',
  auth: 'key_or_session',
  body: PostProjectsBody,
  status: 201,
  response: ProjectResponse,
  errors: { 409: ['name_taken'] },
});

export const listMembers = defineOperation({
  operationId: 'listMembers',
  method: 'get',
  path: '/v1/members',
  tag: 'Organization',
  summary: 'List the organization\'s members (admins)',
  auth: 'key_or_session',
  query: GetMembersQuery,
  status: 200,
  response: GetMembersResponse,
});

export const addMember = defineOperation({
  operationId: 'addMember',
  method: 'post',
  path: '/v1/members',
  tag: 'Organization',
  summary: 'Add a member (creates the user) (admins)',
  auth: 'key_or_session',
  body: PostMembersBody,
  status: 201,
  response: MemberResponse,
  errors: { 409: ['email_taken'] },
});

export const updateMember = defineOperation({
  operationId: 'updateMember',
  method: 'patch',
  path: '/v1/members/{userId}',
  tag: 'Organization',
  summary: 'Change a member\'s role (admins)',
  description: 'Keys act with their creator\'s current role, so a demotion applies to the member\'s keys on the next request. The last admin cannot be demoted.',
  auth: 'key_or_session',
  params: MemberIdParams,
  body: PatchMemberBody,
  status: 200,
  response: MemberResponse,
  errors: { 404: ['not_found'], 409: ['last_admin'] },
});

export const coreOperations = [
  getHealth,
  getOpenApi,
  createKey,
  listKeys,
  revokeKey,
  listProjects,
  createProject,
  listMembers,
  addMember,
  updateMember,
] as const;
