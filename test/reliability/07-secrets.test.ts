/**
 * Suite 7 — secrets stay secret.
 *
 * After a realistic run (two projects with keys created and revoked, a
 * session, platform_a setups with their platform keys, a provider key,
 * connection credentials, agent monitoring keys, runs that send the bearer
 * tokens to an agent, a model that demands its API key and then refuses it,
 * OTLP ingest with a project key) and a round of refusals
 * that carry secrets (wrong platform and provider keys, unparseable JSON with a
 * key in it, for the API and for OTLP, invalid connections with credentials, revoked and forged
 * credentials), no secret — nor any 10-character piece of one — appears in:
 * - any line the server process wrote (stdout and stderr, at debug level);
 * - any response body of the sweep: every GET of `/openapi.json` with the
 *   admin key on both projects, with a project key and a viewer key, and
 *   every refusal above (creation responses, which show a key's secret once
 *   by design, are not part of the sweep);
 * - the raw bytes of the data files: the SQLite file and its WAL, the DuckDB
 *   file and its WAL, read while the server runs and again after it stopped
 *   (sealed values and hashed keys must not be the plaintext).
 * The first start's banner (the one place a key is printed) does not occur:
 * the instance is bootstrapped by `svc-server bootstrap` beforehand.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../helpers/emulator.js';
import { client } from '../helpers/http.js';
import { serialize, sampleTrace } from '../helpers/otlp.js';
import { recordFigures } from './figures.js';
import { type Credential, send } from './matrix.js';
import { RequestSamples, type Values } from './request-samples.js';
import { type Tenant, type World, startWorld } from './world.js';

const WINDOW = 10;
const DATA_FILES = ['svc.sqlite', 'svc.sqlite-wal', 'analytics.duckdb', 'analytics.duckdb.wal'];
const bearer = (key: string): Credential => ({ authorization: `Bearer ${key}` });
const fresh = (prefix: string) => `${prefix}${randomBytes(16).toString('hex')}`;

function valuesOf(t: Tenant, userId: string): Values {
  return {
    project: t.project.id, apiKey: t.spareKey.id, user: userId, agent: t.agentId, connection: t.connectionId, test: t.test.id,
    testVersion: t.test.version_id, persona: t.personaId, suite: t.suiteId, run: t.runId, conversation: t.conversationId, trace: t.traceId, failure: t.failureId,
  };
}

/** The secrets (or pieces of them) a text holds. */
function leaks(text: string, secrets: string[]): string[] {
  const found: string[] = [];
  for (const secret of secrets) {
    for (let i = 0; i + WINDOW <= secret.length; i++) {
      if (text.includes(secret.slice(i, i + WINDOW))) {
        found.push(`${secret.slice(0, 6)}… (piece "${secret.slice(i, i + WINDOW)}")`);
        break;
      }
    }
  }
  return found;
}

describe('suite 7: no secret in logs, responses or data files', () => {
  let world: World;
  const probeSecrets: string[] = [];
  const responses: Array<{ what: string; text: string }> = [];
  const failures: string[] = [];
  const figures = { logLines: 0, responses: 0, errorBodies: 0, bytes: 0, files: 0 };

  const allSecrets = () => [...world.secrets(), ...probeSecrets];
  const keep = async (what: string, pending: Promise<{ status: number; text: string }>) => {
    const res = await pending;
    responses.push({ what: `${what} → ${res.status}`, text: res.text });
    if (res.status >= 400) figures.errorBodies++;
    return res;
  };

  before(async () => {
    world = await startWorld({ SVC_LOG_LEVEL: 'debug' });
  });
  after(async () => {
    recordFigures('07-secrets', {
      checks: allSecrets().length * (figures.logLines + figures.responses + figures.files),
      failures: failures.length,
      secrets: allSecrets().length,
      log_lines: figures.logLines,
      responses: figures.responses,
      error_bodies: figures.errorBodies,
      data_files: figures.files,
      data_bytes: figures.bytes,
    });
    await world?.cleanup();
  });

  it('refuses wrong and malformed secrets without repeating them', async () => {
    const admin = client(world.server.url, world.admin.api_key);
    const wrongPlatform = fresh('pa_');
    const wrongProvider = fresh('el_');
    const token = fresh('ct_');
    const unquoted = `sk${randomBytes(12).toString('hex')}`; // a letter first: V8's parse error quotes the text from there
    const forged = fresh('');
    const unknownKey = `svc_sk_${randomBytes(32).toString('base64url')}`;
    const chatKey = fresh('pa_');
    const spanSecret = `sk${randomBytes(12).toString('hex')}`;
    probeSecrets.push(wrongPlatform, wrongProvider, token, unquoted, forged, unknownKey, chatKey, spanSecret);
    const agent = world.own.agentId;
    await keep('discover, wrong key', admin.post('/api/monitoring/platform_a/discover?project=default', { api_key: wrongPlatform }));
    await keep('save platform_a, wrong key', admin.put('/api/monitoring/platform_a?project=default', { api_key: wrongPlatform, agents: [{ id: 'agent_own', name: 'x' }] }));
    await keep('provider key, wrong', admin.put('/api/provider-keys/elevenlabs', { api_key: wrongProvider }));
    await keep('unparseable JSON with a key', admin.put('/api/monitoring/platform_a?project=default', undefined, { raw: `{"api_key": ${unquoted}}`, contentType: 'application/json' }));
    await keep('unparseable JSON, unterminated', admin.post('/api/monitoring/platform_a/discover?project=default', undefined, { raw: `{"api_key": "${wrongPlatform}`, contentType: 'application/json' }));
    await keep('connection without url', admin.post(`/v1/agents/${agent}/connections`, { name: 'broken', connectionType: 'http_chat', config: {}, credentials: { bearerToken: token } }));
    await keep('connection, unknown field', admin.post(`/v1/agents/${agent}/connections`, { name: 'broken', connectionType: 'http_chat', config: { url: 'http://127.0.0.1:9' }, credentials: { bearerToken: token }, secret: token }));
    await keep('agent, bad name', admin.post('/v1/agents?projectId=default', { name: '', agentPlatform: 'custom', monitoringApiKey: token }));
    await keep('platform_a connection', admin.post(`/v1/agents/${agent}/connections`, { name: 'platform chat', connectionType: 'platform_a_chat_api', config: { platformAgentId: 'agent_own' }, credentials: { apiKey: chatKey } }));
    for (const revoked of world.revokedKeys) await keep('revoked key', client(world.server.url, revoked).get('/api/keys'));
    await keep('unknown key', client(world.server.url, unknownKey).get('/api/keys'));
    await keep('forged cookie', client(world.server.url).get('/v1/projects', { headers: { cookie: `svc.session_token=${forged}` } }));
    await keep('cookie on /api', client(world.server.url).get('/api/keys', { headers: { cookie: `svc.session_token=${world.sessionToken}` } }));
    await keep('revoke the spare key', admin.post(`/api/keys/${world.own.spareKey.id}/revoke`));
    await keep('the revoked spare key', client(world.server.url, world.own.spareKey.secret).get('/api/keys'));
    await keep('spans, project key', client(world.server.url, world.own.key.secret).post('/v1/traces', undefined, { raw: serialize.protobuf(sampleTrace(3)), contentType: 'application/x-protobuf' }));
    await keep('unparseable OTLP JSON with a key', client(world.server.url, world.own.key.secret).post('/v1/traces', undefined, { raw: `{"resourceSpans": [{"attributes": ${spanSecret}}]}`, contentType: 'application/json' }));
    await keep('spans, org-wide key', client(world.server.url, world.admin.api_key).post('/v1/traces', undefined, { raw: serialize.json(sampleTrace(2)), contentType: 'application/json' }));
    // A model that refuses the key: the run's calls end in error, and the error must not repeat what was sent.
    await world.model.json('POST', '/_admin/faults', { status: 401, count: 50 });
    const run = await admin.post('/api/runs', { project: 'default', test_versions: [world.own.test.version_id], agent_id: agent, connection_id: world.own.connectionId });
    assert.equal(run.status, 201, run.text);
    await waitFor('the run to end', async () => ['passed', 'failed', 'error'].includes((await admin.get(`/api/runs/${run.body.id}`)).body.status), 60_000);
    await world.model.json('DELETE', '/_admin/faults');
    const ended = await keep('run against a refusing model', admin.get(`/api/runs/${run.body.id}`));
    assert.match(ended.text, /"error"/, 'the calls ended in error');
    await keep('its events', admin.get(`/api/runs/${run.body.id}/events?limit=200`));
    const refused = responses.filter((r) => !/platform_a connection|revoke the spare|project key|run against|its events/.test(r.what));
    assert.ok(refused.every((r) => /→ 4\d\d$/.test(r.what)), `every probe is refused: ${refused.map((r) => r.what).join('; ')}`);
  });

  it('shows no secret in any list or get, whoever asks', async () => {
    const doc = await client(world.server.url, world.admin.api_key).get('/openapi.json');
    const samples = new RequestSamples(doc.body);
    const own = valuesOf(world.own, world.viewer.userId);
    const other = valuesOf(world.other, world.viewer.userId);
    const askers: Array<[string, Credential, Values[]]> = [
      ['admin', bearer(world.admin.api_key), [own, other]],
      ['project key', bearer(world.own.key.secret), [own]],
      ['viewer', bearer(world.viewer.orgKey), [own, other]],
      ['session', { cookie: `svc.session_token=${world.sessionToken}` }, [own, other]],
    ];
    let reads = 0;
    for (const op of samples.operations.filter((o) => o.method === 'GET')) {
      for (const [who, credential, valueSets] of askers) {
        for (const values of valueSets) {
          const res = await send(world.server.url, samples.build(op, values), credential);
          responses.push({ what: `${who} ${op.operationId} → ${res.status}`, text: res.text });
          if (res.status < 300) reads++;
        }
      }
    }
    assert.ok(reads > 60, `${reads} successful reads in the sweep`);
    figures.responses = responses.length;
    const found = responses.flatMap((r) => leaks(r.text, allSecrets()).map((leak) => `response ${r.what} holds ${leak}`));
    failures.push(...found);
    assert.deepEqual(found, []);
  });

  it('stores sealed and hashed secrets, never the plaintext, in every data file', async () => {
    const found: string[] = [];
    const scan = (when: string) => {
      for (const name of DATA_FILES) {
        const file = path.join(world.server.dataDir, name);
        if (!existsSync(file)) continue;
        const bytes = readFileSync(file);
        figures.files++;
        figures.bytes += bytes.length;
        // latin1 maps every byte to one character, so a plaintext secret is found wherever its bytes are.
        for (const leak of leaks(bytes.toString('latin1'), allSecrets())) found.push(`${name} (${when}) holds ${leak}`);
      }
    };
    scan('running');
    assert.equal(await world.server.stop(), 0, 'the server stops cleanly');
    scan('stopped');
    assert.ok(figures.files >= 4, `${figures.files} data files read`);
    failures.push(...found);
    assert.deepEqual(found, []);
  });

  it('writes no secret into any line of the server log', () => {
    const lines = world.server.output;
    figures.logLines = lines.length;
    assert.ok(lines.some((l) => l.includes('"msg":"request"')), 'requests are logged');
    assert.ok(lines.some((l) => l.includes('"level":"debug"') || l.includes('"level":"warn"')), 'the log is verbose');
    const found = lines.flatMap((line) => leaks(line, allSecrets()).map((leak) => `log line holds ${leak}: ${line.slice(0, 300)}`));
    failures.push(...found);
    assert.deepEqual(found, []);
  });
});
