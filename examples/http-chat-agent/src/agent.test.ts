import assert from 'node:assert/strict';
import { it } from 'node:test';
import { respond } from './agent.js';

it('example agent: looks an order up, answers from the tool result, hangs up on goodbye', () => {
  const first = respond({ conversation_id: 'c', tools: [], messages: [{ role: 'user', content: 'Where is my order 42?' }] });
  assert.deepEqual(first, { reply: null, tool_calls: [{ id: 'call_1', name: 'lookup_order', arguments: { order_id: '42' } }] });
  const answered = respond({
    conversation_id: 'c',
    messages: [
      { role: 'user', content: 'Where is my order 42?' },
      { role: 'assistant', content: null, tool_calls: first.tool_calls! },
      { role: 'tool', tool_call_id: 'call_1', name: 'lookup_order', content: '{"order_id":"42","status":"packed"}', is_error: false },
    ],
  });
  assert.deepEqual(answered, { reply: 'Your order 42 is packed.' });
  const failed = respond({
    conversation_id: 'c',
    messages: [
      { role: 'assistant', content: null, tool_calls: first.tool_calls! },
      { role: 'tool', tool_call_id: 'call_1', name: 'lookup_order', content: '{"error":"down"}', is_error: true },
    ],
  });
  assert.deepEqual(failed, { reply: 'Sorry, I could not look up your order: down.' });
  assert.deepEqual(respond({ conversation_id: 'c', messages: [{ role: 'user', content: 'Thanks, goodbye.' }] }), { reply: 'Thank you for calling. Goodbye!', end_call: true });
});
