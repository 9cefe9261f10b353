import { z } from 'zod';

/**
 * The `http_chat` protocol: how svc talks to an agent behind an `http_chat`
 * connection. svc POSTs an `HttpChatRequest` to `config.url` (with
 * `config.headers` and `Authorization: Bearer <credentials.bearerToken>`) and
 * reads an `HttpChatReply`. `messages` always carries the whole conversation,
 * so an agent can be stateless. Not an operation of svc's own API.
 */
export const HttpChatToolCall = z.object({
  id: z.string().min(1).max(200).describe('Unique within the conversation; the tool result names it'),
  name: z.string().min(1).max(200),
  arguments: z.record(z.string(), z.unknown()).default({}),
});
export type HttpChatToolCall = z.infer<typeof HttpChatToolCall>;

export const HttpChatMessage = z.discriminatedUnion('role', [
  z.object({ role: z.literal('user'), content: z.string().describe('What the caller said') }),
  z.object({ role: z.literal('assistant'), content: z.string().nullable().describe('What the agent said'), tool_calls: z.array(HttpChatToolCall).optional() }),
  z.object({
    role: z.literal('tool'),
    tool_call_id: z.string(),
    name: z.string(),
    content: z.string().describe('The tool\'s answer as JSON text, or `{"error": "..."}` when it failed'),
    is_error: z.boolean(),
  }),
]);
export type HttpChatMessage = z.infer<typeof HttpChatMessage>;

export const HttpChatRequest = z.object({
  conversation_id: z.string().describe('Stable for one simulated call'),
  messages: z.array(HttpChatMessage),
  tools: z.array(z.object({ name: z.string() })).describe('The tools the test mocks; others get an error result'),
});
export type HttpChatRequest = z.infer<typeof HttpChatRequest>;

export const HttpChatReply = z.object({
  reply: z.string().nullable().optional().describe('What the agent says; null or absent when it only calls tools'),
  tool_calls: z.array(HttpChatToolCall).max(20).optional().describe('Tools to call; svc answers them in the next request'),
  end_call: z.boolean().optional().describe('True when the agent hangs up'),
});
export type HttpChatReply = z.infer<typeof HttpChatReply>;
