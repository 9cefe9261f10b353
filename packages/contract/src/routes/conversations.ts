import { defineOperation } from '../operation.js';
import {
  ConversationDetail,
  ConversationIdParams,
  GetConversationsQuery,
  GetConversationsResponse,
} from '../resources/conversations.js';

export const listConversations = defineOperation({
  operationId: 'listConversations',
  method: 'get',
  path: '/api/conversations',
  tag: 'Production conversations',
  summary: 'List production conversations, newest first',
  description: 'Conversations imported from platform_a and derived from platform_b spans, in one list.',
  auth: 'key',
  query: GetConversationsQuery,
  status: 200,
  response: GetConversationsResponse,
  errors: { 400: ['project_required'], 404: ['not_found'] },
});

export const getConversation = defineOperation({
  operationId: 'getConversation',
  method: 'get',
  path: '/api/conversations/{conversationId}',
  tag: 'Production conversations',
  summary: 'One production conversation with its transcript, tool calls and latencies',
  description: 'Looked up in the credential\'s project, or across the organization for an org-wide credential.',
  auth: 'key',
  params: ConversationIdParams,
  status: 200,
  response: ConversationDetail,
  errors: { 404: ['not_found'] },
});

export const conversationOperations = [listConversations, getConversation] as const;
