/**
 * The http_chat protocol, as this agent sees it. svc sends
 * `POST {conversation_id, messages, tools}`; the agent answers
 * `{reply, tool_calls?, end_call?}`. `messages` is the whole conversation so far.
 */
export type Message =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; name: string; content: string; is_error: boolean };

export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export interface ChatRequest {
  conversation_id: string;
  messages: Message[];
  tools?: Array<{ name: string }>;
}

export interface ChatReply {
  reply: string | null;
  tool_calls?: ToolCall[];
  end_call?: boolean;
}

/** The tools this agent calls; svc answers them with the test's mock tools. */
export const TOOLS = ['lookup_order', 'get_opening_hours'] as const;

function parse(content: string): Record<string, unknown> {
  try {
    const value = JSON.parse(content) as unknown;
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : { value };
  } catch {
    return { value: content };
  }
}

/** Answers the results of the tool calls the agent made last. */
function afterTools(messages: Message[]): ChatReply {
  const results = messages.slice(messages.findLastIndex((m) => m.role === 'assistant') + 1) as Extract<Message, { role: 'tool' }>[];
  const sentences = results.map((r) => {
    const body = parse(r.content);
    if (r.is_error) return r.name === 'lookup_order' ? `Sorry, I could not look up your order: ${body.error ?? r.content}.` : `Sorry, I could not check that: ${body.error ?? r.content}.`;
    if (r.name === 'lookup_order') return `Your order ${body.order_id ?? ''} is ${body.status ?? 'being processed'}.`.replace('  ', ' ');
    if (r.name === 'get_opening_hours') return `We are open ${body.hours ?? body.value ?? 'during business hours'}.`;
    return `Done: ${r.content}`;
  });
  return { reply: sentences.join(' ') };
}

/**
 * A deterministic order-support agent: it looks orders up with `lookup_order`,
 * answers opening hours with `get_opening_hours`, offers a refund when asked,
 * and hangs up when the caller says goodbye.
 */
export function respond(request: ChatRequest): ChatReply {
  const messages = request.messages;
  const last = messages.at(-1);
  if (!last) return { reply: 'Hello! I can help you with your orders.' };
  if (last.role === 'tool') return afterTools(messages);
  if (last.role !== 'user') return { reply: 'How else can I help?' };
  const text = last.content.toLowerCase();
  const id = `call_${messages.length}`;
  if (/\b(good ?bye|bye|that's all)\b/.test(text)) return { reply: 'Thank you for calling. Goodbye!', end_call: true };
  const order = /order\s*(?:number\s*)?#?\s*(\d+)/.exec(text);
  if (order) return { reply: null, tool_calls: [{ id, name: 'lookup_order', arguments: { order_id: order[1]! } }] };
  if (/\b(hours|open)\b/.test(text)) return { reply: null, tool_calls: [{ id, name: 'get_opening_hours', arguments: {} }] };
  if (/\brefund\b/.test(text)) return { reply: 'I have issued a full refund to your card.' };
  if (/\b(hello|hi|hey)\b/.test(text)) return { reply: 'Hello! I can help you with your orders.' };
  return { reply: 'Sorry, I can only help with orders and opening hours.' };
}
