import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callerTurn } from './caller.js';
import { judge } from './judge.js';
import type { ChatMessage } from './types.js';

const system = (scenario: string, name = 'Alice'): ChatMessage => ({ role: 'system', content: `Intro\n\n## Persona\nName: ${name}\nDescription: x\n\n## Scenario\n${scenario}\n\n## Rules\n- be brief` });

describe('model emulator rules', () => {
  it('caller: says the script lines in order, with the persona name, ending on the last', () => {
    const scenario = 'Wants a refund.\nCaller: Hi, I am {persona}.\nSay: Bye now.';
    assert.deepEqual(callerTurn([system(scenario), { role: 'user', content: '[connected]' }]), { message: 'Hi, I am Alice.', end_call: false });
    const second = callerTurn([system(scenario), { role: 'user', content: '[connected]' }, { role: 'assistant', content: 'Hi, I am Alice.' }, { role: 'user', content: 'Hello!' }]);
    assert.deepEqual(second, { message: 'Bye now.', end_call: true });
    const past = callerTurn([system(scenario), { role: 'assistant', content: 'a' }, { role: 'assistant', content: 'b' }]);
    assert.deepEqual(past, { message: 'Goodbye.', end_call: true });
  });

  it('caller: without a script, says the scenario\'s first sentence and ends', () => {
    assert.deepEqual(callerTurn([system('I want to book a table. For two.')]), { message: 'I want to book a table.', end_call: true });
  });

  it('judge: quoted phrases, backticked tools, hang-ups, negatives and plain text, citing turns', () => {
    const transcript = [
      { index: 0, role: 'caller' as const, text: 'where is order 4?' },
      { index: 1, role: 'tool' as const, text: '{}', name: 'lookup_order' },
      { index: 2, role: 'agent' as const, text: 'Your order is Shipped!' },
      { index: 3, role: 'agent' as const, text: 'Goodbye' },
    ];
    const behaviors = ['says "shipped"', 'calls `lookup_order`', 'hangs up', 'never says "refund"', 'says "refund"', 'your order is shipped', 'never calls `lookup_order`', 'x <judge:malformed>'].map((behavior, index) => ({ index, behavior }));
    const verdicts = judge({ end_reason: 'agent_ended', transcript, behaviors });
    assert.deepEqual(
      verdicts.map((v) => [v.index, v.verdict, v.turns]),
      [
        [0, 'passed', [2]],
        [1, 'passed', [1]],
        [2, 'passed', [3]],
        [3, 'passed', []],
        [4, 'failed', []],
        [5, 'passed', [2]],
        [6, 'failed', [1]],
      ],
      'a <judge:malformed> behavior gets no verdict',
    );
    assert.match(verdicts[4]!.rationale, /No agent message or tool call matches "refund"/);
    assert.equal(judge({ end_reason: 'caller_ended', transcript, behaviors: [{ index: 0, behavior: 'ends the call' }] })[0]!.verdict, 'failed');
  });
});
