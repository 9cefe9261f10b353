import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { trace } from '@opentelemetry/api';
import { Svc } from '@svc/sdk';
import { MonitoringConfigError, monitor_platform_b, monitorPlatformB } from '@svc/worker-helper';
import { runCli } from '../../helpers/cli.js';
import { client } from '../../helpers/http.js';
import { eventually, projectKey } from '../../helpers/otlp.js';
import { ROOT } from '../../helpers/paths.js';
import { type Bootstrap, type TestServer, startBootstrappedServer } from '../../helpers/server.js';

const run = promisify(execFile);

describe('monitor_platform_b(ctx) and the example voice worker', () => {
  let server: TestServer;
  let admin: Bootstrap;
  let cleanup: () => Promise<void>;
  let key: string;
  let sessions: Array<{ session_id: string; room: string }>;

  before(async () => {
    ({ server, admin, cleanup } = await startBootstrappedServer());
    key = await projectKey(server, admin, 'worker');
    const { stdout } = await run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'examples/voice-worker/src/main.ts')], {
      env: { ...process.env, SVC_URL: server.url, SVC_API_KEY: key, CALLS: '2' },
      timeout: 60_000,
    });
    sessions = stdout.trim().split('\n').map((line) => JSON.parse(line));
  });
  after(() => cleanup());

  const conversationOf = (sessionId: string) =>
    eventually(`conversation of ${sessionId}`, async () => {
      const list = await client(server.url, key).get('/api/conversations?source=platform_b');
      const found = list.body.items.find((c: { external_id: string; ended_at: string | null }) => c.external_id === sessionId && c.ended_at);
      return found ? (await client(server.url, key).get(`/api/conversations/${found.id}`)).body : null;
    });

  it('turns each call into a conversation with turns, latencies, tool calls and its trace', async () => {
    assert.equal(sessions.length, 2);
    const c = await conversationOf(sessions[0]!.session_id);
    assert.equal(c.source, 'platform_b');
    assert.equal(c.platform_agent_id, 'front-desk');
    assert.equal(c.termination_reason, 'completed');
    assert.deepEqual(c.turns.map((t: { role: string }) => t.role), ['agent', 'user', 'agent', 'tool', 'user', 'agent', 'user', 'agent']);
    assert.equal(c.turns[1].text, 'I would like to book a cleaning next Tuesday.');
    assert.equal(c.turns[2].text, 'Tuesday at 10 am or 2 pm are open. Which works for you?');
    for (const t of c.turns.filter((t: { role: string; index: number }) => t.role === 'agent' && t.index > 0)) {
      assert.ok(t.latency_ms > 0, 'end of user speech to first agent audio');
      assert.ok(t.llm_ttft_ms > 0 && t.tts_ttfb_ms > 0);
    }
    assert.equal(c.turns[0].latency_ms, null, 'the greeting answers nobody');
    assert.equal(c.latency.agent_turns, 3);
    assert.deepEqual(c.tool_calls.map((t: { name: string }) => t.name), ['check_availability']);
    assert.deepEqual(c.tool_calls[0].arguments, { day: 'tuesday', service: 'cleaning' });
    assert.deepEqual(c.tool_calls[0].output, { slots: ['10:00', '14:00'] });
    assert.equal(c.tool_calls[0].turn_index, 2);
    assert.equal(c.metadata.room_name, sessions[0]!.room);
    assert.equal(c.metadata.job_id, sessions[0]!.session_id);
    assert.deepEqual(c.metadata.unknown_spans, [{ name: 'vad_inference_batch', count: 1 }], 'unknown spans are kept and shown');
    const second = await conversationOf(sessions[1]!.session_id);
    assert.equal(second.turns.filter((t: { interrupted: boolean }) => t.interrupted).length, 1, 'the caller talked over the agent');

    const sdk = new Svc({ baseUrl: server.url, apiKey: key });
    const tree = await sdk.traces.get(c.trace_id);
    assert.equal(tree.conversation_id, c.id);
    assert.equal(tree.spans[0]!.name, 'agent_session');
    assert.ok(tree.spans[0]!.children.some((s) => s.name === 'vad_inference_batch'));
    assert.equal(tree.spans[0]!.attributes['svc.session.id'], sessions[0]!.session_id, 'the helper tagged the span');
    assert.equal((await sdk.conversations.get(c.id)).turns.length, c.turns.length);
  });

  it('svc conversations list|show and svc traces show print them for people and as JSON', async () => {
    const env = { SVC_URL: server.url, SVC_API_KEY: key };
    const c = await conversationOf(sessions[0]!.session_id);
    const listed = await runCli(['conversations', 'list', '--source', 'platform_b', '--json'], env);
    assert.equal(listed.code, 0, listed.stderr);
    assert.ok(JSON.parse(listed.stdout).conversations.some((x: { id: string }) => x.id === c.id));
    const table = await runCli(['conversations', 'list'], env);
    assert.match(table.stdout, new RegExp(c.id));
    const shown = await runCli(['conversations', 'show', c.id], env);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /user\s+I would like to book a cleaning next Tuesday\./);
    assert.match(shown.stdout, /agent\s+Tuesday at 10 am.*\[latency [\d.]+ m?s · llm ttft \d+ ms · tts ttfb \d+ ms\]/);
    assert.match(shown.stdout, /check_availability \{"day":"tuesday","service":"cleaning"\} -> \{"slots":\["10:00","14:00"\]\}/);
    const tree = await runCli(['traces', 'show', c.trace_id], env);
    assert.equal(tree.code, 0, tree.stderr);
    const lines = tree.stdout.split('\n');
    assert.match(lines.find((l) => l.startsWith('agent_session')) ?? '', /^agent_session {2}\d+(\.\d)? s {2}\(\+0 ms\)$/);
    assert.ok(lines.some((l) => /^ {2}agent_turn {2}/.test(l)));
    assert.ok(lines.some((l) => /^ {4}llm_request {2}\d+ ms/.test(l)), 'grandchildren are indented twice');
    const missing = await runCli(['traces', 'show', 'f'.repeat(32)], env);
    assert.equal(missing.code, 4);
    assert.match(missing.stderr, /not_found/);
  });

  it('refuses missing configuration with the variable\'s name, and an org-wide key with the server\'s message', async () => {
    const saved = { url: process.env.SVC_URL, key: process.env.SVC_API_KEY };
    delete process.env.SVC_URL;
    delete process.env.SVC_API_KEY;
    try {
      await assert.rejects(monitor_platform_b({}), (e: Error) => e instanceof MonitoringConfigError && /SVC_URL/.test(e.message));
      await assert.rejects(monitor_platform_b({}, { url: server.url }), (e: Error) => e instanceof MonitoringConfigError && /SVC_API_KEY/.test(e.message));
      await assert.rejects(monitorPlatformB({}, { url: server.url, apiKey: admin.api_key }), (e: Error) => /not_permitted: Trace ingest needs a project-scoped API key/.test(e.message));
    } finally {
      Object.assign(process.env, saved.url ? { SVC_URL: saved.url } : {}, saved.key ? { SVC_API_KEY: saved.key } : {});
    }
  });

  it('never throws into the call when the service is down: the exporter retries, then the spans are dropped with a warning', async () => {
    const warnings: string[] = [];
    let shutdown: (() => Promise<void> | void) | undefined;
    const ctx = { job: { id: 'job-down' }, room: { name: 'room-down' }, addShutdownCallback: (cb: () => Promise<void> | void) => void (shutdown = cb) };
    const monitor = await monitor_platform_b(ctx, { url: 'http://127.0.0.1:9', apiKey: key, exportTimeoutMs: 1500, logger: { warn: (m) => warnings.push(m) } });
    assert.equal(monitor.sessionId, 'job-down');
    trace.getTracer('livekit-agents').startSpan('agent_session').end();
    await shutdown!();
    assert.ok(warnings.some((w) => /not reachable/.test(w)), warnings.join('\n'));
    assert.ok(warnings.some((w) => /dropped 1 span/.test(w)), warnings.join('\n'));
  });
});
