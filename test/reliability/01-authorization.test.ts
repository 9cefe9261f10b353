/**
 * Suite 1 — the authorization matrix, generated from `/openapi.json`.
 *
 * Every operation of the document (fetched with a key) × every case below,
 * with path, query and body filled from the operation's schemas (checked
 * against them, so no refusal can come from a malformed request) and with
 * the real ids of resources in two projects: "own" (default) and "other"
 * (tenant-b), each holding a key, persona, test, suite, agent, connection,
 * run, trace, conversation and platform_a import failure. The other
 * project's free text carries a distinctive mark; that mark, its ids and its
 * secrets must never appear in any response of the matrix (unless the
 * request itself named them), and every response must be one the contract
 * documents for the operation (status, error code, body, headers).
 *
 * Expectations, exactly:
 * - no credential → 401 `not_authenticated` (authentication runs before any
 *   input is read, so this holds for any request).
 * - malformed key (`Bearer not-a-key`, a well-formed unknown `svc_sk_` key,
 *   `Basic` credentials; on /v1 also a bad bearer beside a valid session
 *   cookie, which must not fall back to it) → 401 `not_authenticated`.
 * - revoked key (an admin's org-wide key and a project key, both revoked) →
 *   401 `not_authenticated`.
 * - viewer writing (a viewer's org-wide key, its project key and, on /v1, its
 *   session; every operation that is not a GET) → 403 `not_permitted`.
 * - project key on another project (an admin's key of the own project; one
 *   slot at a time takes the other project's value):
 *   · a project named in query or body, by id or by name → 403 `not_permitted`;
 *   · a resource id the operation looks up (path, `suiteId`) → 404
 *     `not_found`, answered exactly as for an id that never existed;
 *   · an id a body refers to (`test_versions`, `agent_id`, `connection_id`,
 *     `testIds`, `personas`, `expected_version_id`) → refused exactly as an
 *     id that never existed (same status and code, never 2xx);
 *   · an id a list is filtered by (`agent_id` query) → 200 with no items,
 *     exactly as for an id that never existed (nothing to see, nothing told).
 *   Control: the same key with its own values is not refused that way.
 * - org-wide key naming a project (the admin's key; the operations that take
 *   a project and a resource id): the other project's ids behave exactly as
 *   ids that never existed, as above.
 * - org-wide key on trace ingest → 403 `not_permitted` (JSON error body;
 *   for protobuf a google.rpc.Status whose message starts `not_permitted:`).
 * - session cookie on `/api` (and on the key-only /openapi.json and
 *   /v1/traces), under both cookie names → 401 `not_authenticated`; the
 *   same cookie is accepted on a /v1 read (control).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import { client } from '../helpers/http.js';
import { ContractValidator } from './contract-validator.js';
import { type Credential, Findings, send } from './matrix.js';
import { type OperationInfo, RequestSamples, type Slot, type Values } from './request-samples.js';
import { recordFigures } from './figures.js';
import { type Tenant, type World, startWorld } from './world.js';

const bearer = (key: string): Credential => ({ authorization: `Bearer ${key}` });
const PREFIX: Record<keyof Values, string> = {
  project: 'prj_', apiKey: 'key_', user: 'usr_', agent: 'agt_', connection: 'con_', test: 'tst_', testVersion: 'tstv_',
  persona: 'prs_', suite: 'sut_', run: 'run_', conversation: 'cnv_', trace: '', failure: 'imf_',
};

function valuesOf(t: Tenant, userId: string): Values {
  return {
    project: t.project.id, apiKey: t.spareKey.id, user: userId, agent: t.agentId, connection: t.connectionId, test: t.test.id,
    testVersion: t.test.version_id, persona: t.personaId, suite: t.suiteId, run: t.runId, conversation: t.conversationId, trace: t.traceId, failure: t.failureId,
  };
}

/** Ids of the right shape that name nothing. */
function missingValues(): Values {
  const out = {} as Values;
  for (const [kind, prefix] of Object.entries(PREFIX)) out[kind as keyof Values] = prefix ? `${prefix}${randomBytes(11).toString('hex')}` : randomBytes(16).toString('hex');
  return out;
}

/** Writes last, the ones that retire what others use after them: the control phase mutates the own project. */
function controlRank(op: OperationInfo): number {
  if (op.method === 'GET') return 0;
  if (op.method === 'DELETE') return 4;
  if (/^(archive|revoke|cancel)/.test(op.operationId)) return 2;
  if (/^restore/.test(op.operationId)) return 3;
  return 1;
}

describe('suite 1: authorization matrix from /openapi.json', () => {
  let world: World;
  let samples: RequestSamples;
  let findings: Findings;
  let own: Values;
  let other: Values;
  let authed: OperationInfo[];
  let controlSucceeded = 0;
  /** Per operation, what the cross-project case established (for the control phase). */
  const refusedAs = new Map<string, Array<{ slot: Slot; status: number; code: string | undefined }>>();
  const go = (req: Parameters<typeof send>[1], credential: Credential) => send(world.server.url, req, credential);

  before(async () => {
    world = await startWorld();
    const doc = await client(world.server.url, world.admin.api_key).get('/openapi.json');
    assert.equal(doc.status, 200);
    samples = new RequestSamples(doc.body);
    authed = samples.operations.filter((o) => o.auth !== 'none');
    own = valuesOf(world.own, world.viewer.userId);
    other = valuesOf(world.other, world.viewer.userId);
    const t = world.other;
    findings = new Findings([t.mark, t.project.id, 'tenant-b', t.key.id, t.spareKey.id, t.personaId, t.test.id, t.test.version_id, t.suiteId, t.agentId, t.connectionId, t.runId, t.traceId, t.conversationId, t.failureId, ...Object.values(t.secrets), t.key.secret, t.spareKey.secret], new ContractValidator(doc.body));
  });
  after(async () => {
    if (findings) {
      const cases = [...findings.requestsByCase.keys()];
      recordFigures('01-authorization', {
        checks: findings.checks,
        failures: findings.failures.length,
        operations: authed.length,
        cases: cases.length,
        'operations x cases': cases.reduce((n, c) => n + findings.operationsByCase.get(c)!.size, 0),
        requests: [...findings.requestsByCase.values()].reduce((a, b) => a + b, 0),
        'control 2xx': `${controlSucceeded}/${authed.length}`,
      });
    }
    await world?.cleanup();
  });

  /** Fails the test with the findings it added (each test reports its own). */
  let firstFinding = 0;
  beforeEach(() => (firstFinding = findings.failures.length));
  const settle = () => assert.equal(findings.failures.length - firstFinding, 0, `authorization findings:\n${findings.report(firstFinding)}`);

  it('covers every operation of the document', () => {
    assert.ok(authed.length >= 50, `${authed.length} authenticated operations`);
    assert.ok(samples.operations.some((o) => o.operationId === 'getHealth' && o.auth === 'none'), 'health is the public one');
    for (const op of authed) samples.build(op, own); // every sample request fits its schema
  });

  it('no credential, malformed keys and a revoked key: 401 everywhere', async () => {
    const unknownKey = `svc_sk_${randomBytes(32).toString('base64url')}`;
    const malformed: Credential[] = [{ authorization: 'Bearer not-a-key' }, bearer(unknownKey), { authorization: 'Basic dXNlcjpwYXNzd29yZA==' }];
    for (const op of authed) {
      const req = samples.build(op, own);
      findings.refusal('no credential', req, await go(req, {}), 401, 'not_authenticated');
      const variants = op.auth === 'key_or_session' ? [...malformed, { authorization: 'Bearer not-a-key', cookie: `svc.session_token=${world.sessionToken}` }] : malformed;
      for (const credential of variants) findings.refusal('malformed key', req, await go(req, credential), 401, 'not_authenticated');
      for (const revoked of world.revokedKeys) findings.refusal('revoked key', req, await go(req, bearer(revoked)), 401, 'not_authenticated');
    }
    settle();
  });

  it('viewers write nothing: 403 on every write, with an org-wide key, a project key or a session', async () => {
    const session: Credential = { cookie: `svc.session_token=${world.viewer.sessionToken}` };
    for (const op of authed.filter((o) => o.method !== 'GET')) {
      const credentials = [bearer(world.viewer.orgKey), bearer(world.viewer.projectKey), ...(op.auth === 'key_or_session' ? [session] : [])];
      for (const credential of credentials) {
        const req = samples.build(op, own);
        findings.refusal('viewer writing', req, await go(req, credential), 403, 'not_permitted');
      }
    }
    settle();
  });

  /**
   * One slot at a time takes the other project's value (and, to compare, an
   * id that never existed); `withProjectSlots` also names the other project.
   */
  async function crossProject(matrixCase: string, credential: Credential, ops: OperationInfo[], withProjectSlots: boolean): Promise<void> {
    for (const op of ops) {
      for (const slot of op.slots.filter((s) => s.kind !== 'user')) {
        if (slot.role === 'project') {
          if (!withProjectSlots) continue;
          for (const value of [world.other.project.id, world.other.project.name]) {
            const req = samples.build(op, own, { slot, value });
            findings.refusal(matrixCase, req, await go(req, credential), 403, 'not_permitted');
          }
          refusedAs.set(op.operationId, [...(refusedAs.get(op.operationId) ?? []), { slot, status: 403, code: 'not_permitted' }]);
          continue;
        }
        const missingReq = samples.build(op, own, { slot, value: missingValues()[slot.kind] });
        const missing = await go(missingReq, credential);
        const req = samples.build(op, own, { slot, value: other[slot.kind] });
        const res = await go(req, credential);
        findings.saw(matrixCase, missingReq, missing);
        findings.saw(matrixCase, req, res);
        const same = res.status === missing.status && res.code === missing.code;
        const where = `${matrixCase} (${slot.where} ${slot.name}): ${req.method} ${req.path}`;
        if (slot.role === 'filter') {
          findings.expect(same && res.status === 200 && JSON.stringify(res.body.items) === '[]', `${where} answered ${res.status} ${res.text.slice(0, 200)}`);
        } else if (slot.role === 'lookup') {
          findings.expect(same && res.status === 404 && res.code === 'not_found', `${where} answered ${res.status} ${res.code}, a missing id ${missing.status} ${missing.code}`);
        } else {
          findings.expect(same && res.status >= 400, `${where} answered ${res.status} ${res.code}, a missing id ${missing.status} ${missing.code}: ${res.text.slice(0, 200)}`);
        }
        if (withProjectSlots) refusedAs.set(op.operationId, [...(refusedAs.get(op.operationId) ?? []), { slot, status: missing.status, code: missing.code }]);
      }
    }
  }

  it('a project key never reaches another project, by id or name, in path, query or body', async () => {
    await crossProject('another project', bearer(world.own.key.secret), authed, true);
    settle();
  });

  it('an org-wide key that names a project reaches nothing of another one', async () => {
    // Without a project an org-wide key finds ids anywhere in the organization (documented); naming one confines it.
    const scoped = authed.filter((o) => o.slots.some((s) => s.role === 'project') && o.slots.some((s) => s.role !== 'project' && s.kind !== 'user'));
    assert.ok(scoped.length >= 10, `${scoped.length} operations name a project and a resource`);
    await crossProject('org-wide key, project named', bearer(world.admin.api_key), scoped, false);
    settle();
  });

  it('an org-wide key cannot ingest traces, in JSON or protobuf', async () => {
    const ingest = samples.operations.find((o) => o.operationId === 'ingestTraces')!;
    const json = samples.build(ingest, own);
    findings.refusal('org-wide key on trace ingest', json, await go(json, bearer(world.admin.api_key)), 403, 'not_permitted');
    const proto = { ...json, raw: '', contentType: 'application/x-protobuf' }; // zero bytes: a valid empty ExportTraceServiceRequest
    const res = await go(proto, bearer(world.admin.api_key));
    findings.refusal('org-wide key on trace ingest', proto, res, 403, 'not_permitted');
    findings.expect(res.contentType === 'application/x-protobuf', `a protobuf refusal is a google.rpc.Status, got ${res.contentType}`);
    settle();
  });

  it('a session cookie opens /v1 only: 401 on every key-only operation', async () => {
    const v1 = await go({ operationId: 'listProjects', method: 'GET', path: '/v1/projects' }, { cookie: `svc.session_token=${world.sessionToken}` });
    findings.expect(v1.status === 200, `the session cookie reads /v1/projects (${v1.status})`);
    for (const op of authed.filter((o) => o.auth === 'key')) {
      for (const name of ['svc.session_token', '__Secure-svc.session_token']) {
        const req = samples.build(op, own);
        findings.refusal('session cookie on /api', req, await go(req, { cookie: `${name}=${world.sessionToken}` }), 401, 'not_authenticated');
      }
    }
    settle();
  });

  it('control: the same project key with its own values is let through to the data', async () => {
    const key = bearer(world.own.key.secret);
    const notOk: string[] = [];
    for (const op of [...authed].sort((a, b) => controlRank(a) - controlRank(b))) {
      const req = samples.build(op, own);
      const res = await go(req, key);
      findings.saw('own project (control)', req, res);
      if (res.status >= 300) notOk.push(`${op.operationId} ${res.status} ${res.code ?? ''}`);
      for (const refused of refusedAs.get(op.operationId) ?? []) {
        if (refused.slot.role === 'filter') continue;
        findings.expect(
          !(res.status === refused.status && res.code === refused.code),
          `own project (control): ${req.method} ${req.path} is refused ${res.status} ${res.code} as the ${refused.slot.name} of another project is: the matrix would prove nothing`,
        );
      }
    }
    // Org management and provider keys refuse any project key (by design); state conflicts (archived, finished) are expected too.
    process.stdout.write(`# control: ${authed.length - notOk.length}/${authed.length} operations succeed; the others answer ${notOk.join(', ')}\n`);
    controlSucceeded = authed.length - notOk.length;
    findings.expect(controlSucceeded >= authed.length * 0.7, `the sample requests should mostly succeed with their own credentials; refused: ${notOk.join(', ')}`);
    settle();
  });
});
