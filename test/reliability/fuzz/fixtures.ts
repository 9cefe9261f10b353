import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { client } from '../../helpers/http.js';
import { projectKey, sampleTrace, serialize } from '../../helpers/otlp.js';
import type { Bootstrap, TestServer } from '../../helpers/server.js';
import type { IdPool } from './schema-arbitrary.js';

/** A loopback port nothing listens on: the fuzz server's model endpoint, so created runs fail at once and never reach an agent. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Creates one of every resource (test, persona, suite, agent, connection,
 * run, key, member, trace) so generated ids find real records, and returns
 * them as the id pool with the project key for trace ingest.
 */
export async function seedResources(server: TestServer, admin: Bootstrap, platformKey: string): Promise<{ pool: IdPool; ingestKey: string }> {
  const api = client(server.url, admin.api_key);
  const ok = async (res: Promise<{ status: number; text: string; body: any }>, status = 201) => {
    const r = await res;
    assert.equal(r.status, status, r.text);
    return r.body;
  };
  const other = (await ok(api.post('/v1/projects', { name: 'fuzz-other' }))).project;
  const test = await ok(api.post('/api/tests', { name: 'fuzz base', scenario: 'Caller: hi', expected_behaviors: ['greets'], project: 'default' }));
  const persona = await ok(api.post('/api/personas', { name: 'fuzz persona', project: 'default' }));
  const suite = (await ok(api.post('/v1/test-suites?projectId=default', { name: 'fuzz suite', testIds: [test.id] }))).testSuite;
  const agent = (await ok(api.post('/v1/agents?projectId=default', { name: 'fuzz agent', agentPlatform: 'custom' }))).agent;
  const connection = (
    await ok(api.post(`/v1/agents/${agent.id}/connections?projectId=default`, { name: 'chat', connectionType: 'http_chat', config: { url: 'http://127.0.0.1:9/chat' } }))
  ).connection;
  const run = await ok(api.post('/api/runs', { test_versions: [test.version_id], agent_id: agent.id, project: 'default' }));
  const key = await ok(api.post('/api/keys', { name: 'fuzz throwaway' }));
  const member = (await ok(api.post('/v1/members', { email: 'fuzz-member@example.test', role: 'member' }))).member;
  const ingestKey = await projectKey(server, admin, 'fuzz ingest');
  const spans = sampleTrace(3);
  const traced = await fetch(`${server.url}/v1/traces`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ingestKey}`, 'content-type': 'application/x-protobuf' },
    body: serialize.protobuf(spans),
  });
  assert.equal(traced.status, 200);
  const traceId = spans[0]!.spanContext().traceId;
  return {
    ingestKey,
    pool: {
      byPrefix: {
        prj_: [admin.project_id, other.id],
        tst_: [test.id],
        tstv_: [test.version_id],
        prs_: [persona.id],
        sut_: [suite.id],
        agt_: [agent.id],
        con_: [connection.id],
        run_: [run.id],
        key_: [key.id],
        usr_: [member.userId],
        imf_: ['imf_unknown'],
        cnv_: ['cnv_unknown'],
      },
      projects: ['default', 'fuzz-other', admin.project_id, other.id],
      words: [traceId, platformKey, 'agent_alpha', 'elevenlabs', 'deepgram', 'aura-2', 'nova-3', 'platform_a', 'platform_b-agents', 'en', 'http_chat'],
    },
  };
}
