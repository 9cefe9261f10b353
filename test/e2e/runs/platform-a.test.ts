import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type EmulatorProcess, startEmulator } from '../../helpers/emulator.js';
import { assertError } from '../../helpers/http.js';
import { type RunWorld, readAllEvents, startRunWorld } from '../../helpers/runs.js';

const PLATFORM_KEY = 'pa_chat_key_R7w2Kq9Lm4Xz';
const AGENT = 'pa_agent_orders';

const SEED = {
  keys: [
    { key: PLATFORM_KEY, permissions: ['agents_read'], label: 'chat' },
    { key: 'pa_history_only_key_0000', permissions: ['history_read'], label: 'history' },
  ],
  agents: [
    {
      agent_id: AGENT,
      name: 'Orders',
      modality: 'text',
      chat: {
        rules: [{ when: 'order', tool_call: { name: 'lookup_order', arguments: { order_id: '42' } }, reply: 'Your order: {tool_output}' }],
        end_phrases: ['goodbye'],
        end_reply: 'Goodbye!',
      },
    },
  ],
};

describe('runs: platform_a_chat_api connections against the platform_a emulator', () => {
  let w: RunWorld;
  let platform: EmulatorProcess;
  let version: string;
  const connect = async (apiKey: string, name: string) => {
    const res = await w.api.post(`/v1/agents/${agentId}/connections`, { name, connectionType: 'platform_a_chat_api', config: { platformAgentId: AGENT }, credentials: { apiKey } });
    assert.equal(res.status, 201, res.text);
    return res.body.connection.id as string;
  };
  let agentId: string;

  before(async () => {
    platform = await startEmulator(SEED);
    w = await startRunWorld({ SVC_PLATFORM_A_URL: platform.url });
    agentId = (await w.api.post('/v1/agents?projectId=default', { name: 'Orders on platform_a', agentPlatform: 'platform_a', platformAgentId: AGENT })).body.agent.id;
    version = (
      await w.test({
        name: 'Platform order',
        scenario: 'Caller: Where is my order 42?\nCaller: Thanks, goodbye.',
        expected_behaviors: ['says "shipped"', 'calls `lookup_order`', 'hangs up'],
        mock_tools: [{ tool: 'lookup_order', answer: { status: 'shipped' } }],
      })
    ).version_id;
  });
  after(async () => {
    await w?.cleanup();
    await platform?.stop();
  });

  it('runs a call through the platform\'s chat endpoint: tool calls answered with tool_results, the hang-up seen', async () => {
    const connectionId = await connect(PLATFORM_KEY, 'chat');
    const run = await w.finished((await w.startRun([version], { agent_id: agentId, connection_id: connectionId })).id);
    assert.equal(run.status, 'passed', JSON.stringify(run.results[0]));
    const [call] = run.results;
    assert.equal(call.end_reason, 'agent_ended');
    assert.deepEqual(call.tool_calls.map((t: any) => [t.name, t.arguments, t.outcome]), [['lookup_order', { order_id: '42' }, 'answer']]);
    assert.deepEqual(
      call.transcript.map((e: any) => [e.role, e.text]),
      [
        ['caller', 'Where is my order 42?'],
        ['tool', '{"status":"shipped"}'],
        ['agent', 'Your order: {"status":"shipped"}'],
        ['caller', 'Thanks, goodbye.'],
        ['agent', 'Goodbye!'],
      ],
    );
    const requests = (await platform.requests()).requests.filter((r: any) => r.path === `/v1/agents/${AGENT}/chat`);
    assert.ok(requests.length >= 3 && requests.every((r: any) => r.key_label === 'chat' && r.status === 200), 'every chat request carried the connection\'s key');
    const events = await readAllEvents(w.api, run.id);
    assert.ok(!JSON.stringify([run, events.events, w.server.output]).includes(PLATFORM_KEY), 'the platform key appears in no response, event or log line');
  });

  it('errors the call when the platform refuses the key', async () => {
    const connectionId = await connect('pa_history_only_key_0000', 'history key');
    const run = await w.finished((await w.startRun([version], { agent_id: agentId, connection_id: connectionId })).id);
    assert.equal(run.status, 'error');
    assert.equal(run.results[0].problem.code, 'agent_error');
    assert.match(run.results[0].problem.message, /403/);
  });

  it('refuses an archived platform connection', async () => {
    const connectionId = await connect(PLATFORM_KEY, 'archived');
    await w.api.post(`/v1/agents/${agentId}/connections/${connectionId}/archive`, {});
    assertError(await w.createRun([version], { agent_id: agentId, connection_id: connectionId }), 422, 'archived_connection');
  });
});
