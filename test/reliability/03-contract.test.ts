/**
 * Suite 3 — responses match the contract.
 *
 * Every response the end-to-end suite produced, through every client (the
 * HTTP helper, the SDK, the CLI, the OTLP exporters, the worker helper), is
 * validated against the `/openapi.json` the server serves: the status must be
 * documented for the operation, the media type for that status, and the body
 * must match the documented schema (closed objects, so an undocumented or a
 * missing member fails); refusals must be ErrorBody with a documented code.
 *
 * Where the responses come from: the server's test-only recorder
 * (`SVC_RECORD_RESPONSES`) writes one JSON line per response. Any run of every
 * `test/e2e` file through `scripts/run-tests.mjs` (`npm test`, `npm run
 * test:e2e`) records into `tmp/recorded-responses/` with a manifest naming the
 * files run, the build's fingerprint and whether the run finished. The `ci`
 * profile reuses those recordings when the manifest shows a finished run of
 * every current e2e file against the current build (so CI, which runs `npm
 * test` first, pays nothing extra); otherwise, and always in the `full`
 * profile, this suite runs the e2e suite itself (minutes) to record afresh.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { RECORDINGS_DIR, ROOT, usableRecordings } from '../../scripts/lib/recorded-responses.mjs';
import { client } from '../helpers/http.js';
import { startBootstrappedServer } from '../helpers/server.js';
import { ContractValidator, type RecordedResponse } from './contract-validator.js';
import { PROFILE, recordFigures } from './figures.js';

/** Runs every e2e file with the recorder on; its (long) output goes to a log file, whose path it returns. */
async function recordE2eRun(): Promise<string> {
  const log = path.join(mkdtempSync(path.join(tmpdir(), 'svc-contract-')), 'e2e.log');
  const fd = openSync(log, 'w');
  const child = spawn(process.execPath, ['scripts/run-tests.mjs', 'test/e2e'], {
    cwd: ROOT,
    // Without NODE_TEST_CONTEXT: inherited from this test's runner, it would make the nested runner report to us instead of running.
    env: { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_TEST_CONTEXT')), SVC_RECORD_RESPONSES: RECORDINGS_DIR },
    stdio: ['ignore', fd, fd],
  });
  const timer = setTimeout(() => child.kill('SIGTERM'), 30 * 60_000); // bounded: the e2e suite takes minutes, never this long
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(timer);
  closeSync(fd);
  process.stdout.write(`# e2e recording run exited ${code}; its output: ${log}\n`);
  return log;
}

/** Every recorded response, in file order. */
function readRecordings(files: string[]): RecordedResponse[] {
  const out: RecordedResponse[] = [];
  for (const file of files) {
    for (const line of readFileSync(file, 'utf8').split('\n')) if (line.trim()) out.push(JSON.parse(line) as RecordedResponse);
  }
  return out;
}

describe('suite 3: every e2e response matches /openapi.json', () => {
  let document: Record<string, any>;
  let validator: ContractValidator;
  let recordings: RecordedResponse[] = [];
  let source = 'reused';
  let e2eExit: number | null = null;

  before(async () => {
    let found = usableRecordings(RECORDINGS_DIR);
    let log = '';
    if (PROFILE === 'full' || !found.usable) {
      process.stdout.write(`# recording a fresh e2e run (${PROFILE === 'full' ? 'full profile' : found.usable ? '' : found.reason})\n`);
      log = await recordE2eRun();
      source = 'recorded';
      found = usableRecordings(RECORDINGS_DIR);
    }
    assert.ok(found.usable, `no usable recordings: ${found.usable ? '' : found.reason}${log ? `\n${readFileSync(log, 'utf8').slice(-3000)}` : ''}`);
    e2eExit = found.manifest.exitCode ?? null;
    recordings = readRecordings(found.files);

    const { server, admin, cleanup } = await startBootstrappedServer();
    try {
      const res = await client(server.url, admin.api_key).get('/openapi.json');
      assert.equal(res.status, 200);
      document = res.body;
    } finally {
      await cleanup();
    }
    validator = new ContractValidator(document);
  });

  it('compiles every documented response schema', () => {
    assert.ok(validator.compileAll() > validator.operationIds().length, 'each operation documents several JSON responses');
  });

  it('refuses responses that break the contract (the check is not vacuous)', () => {
    const ok = recordings.find((r) => r.operationId === 'listKeys' && r.status === 200) ?? recordings.find((r) => r.operationId && r.status === 200 && r.contentType === 'application/json' && r.body && typeof r.body === 'object');
    assert.ok(ok, 'a recorded JSON success to mutate');
    assert.deepEqual(validator.check(ok), [], 'the original passes');
    const extra = { ...ok, body: { ...(ok.body as object), undocumented_member: 1 } };
    const missing = { ...ok, body: Object.fromEntries(Object.entries(ok.body as object).slice(1)) };
    const status = { ...ok, status: 418 };
    const media = { ...ok, contentType: 'text/html' };
    const code = { ...ok, status: 404, body: { error: 'name_taken', message: 'x' } };
    const header = { ...ok, headers: Object.fromEntries(Object.entries(ok.headers ?? {}).filter(([k]) => k !== 'x-request-id')) };
    for (const bad of [extra, missing, status, media, code, header]) assert.notDeepEqual(validator.check(bad), [], `flagged: ${JSON.stringify(bad).slice(0, 120)}`);
  });

  it('finds every recorded response documented', () => {
    const failures = new Map<string, { count: number; example: string }>();
    const covered = new Set<string>();
    let internalErrors = 0;
    for (const rec of recordings) {
      if (rec.operationId) covered.add(rec.operationId);
      const reasons = validator.check(rec);
      // The contract documents 500 everywhere, but the e2e suite never provokes one: each is a defect.
      if (rec.status >= 500 && rec.status !== 503) {
        internalErrors++;
        reasons.push(`server error ${rec.status}: ${JSON.stringify(rec.body).slice(0, 200)}`);
      }
      for (const reason of reasons) {
        const key = `${rec.operationId ?? '(unrouted)'} ${rec.status}: ${reason}`;
        const seen = failures.get(key);
        if (seen) seen.count++;
        else failures.set(key, { count: 1, example: `${rec.method} ${rec.path} ${JSON.stringify(rec.body)?.slice(0, 300)}` });
      }
    }
    const all = validator.operationIds();
    const uncovered = all.filter((id) => !covered.has(id));
    const failed = [...failures.values()].reduce((n, f) => n + f.count, 0);
    process.stdout.write(`# operations never exercised by the e2e suite: ${uncovered.join(', ') || 'none'}\n`);
    recordFigures('03-contract', {
      checks: recordings.length,
      failures: failed,
      responses: recordings.length,
      operations: `${covered.size}/${all.length}`,
      distinct_failures: failures.size,
      internal_errors: internalErrors,
      recordings: source,
      e2e_exit: String(e2eExit),
    });
    assert.ok(recordings.length > 1000, `the e2e suite produced ${recordings.length} responses`);
    const report = [...failures].map(([k, f]) => `${f.count}× ${k}\n    e.g. ${f.example}`).join('\n');
    assert.equal(failures.size, 0, `responses that break the contract:\n${report}`);
  });
});
