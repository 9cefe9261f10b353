import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { cliHome, runCli } from '../../helpers/cli.js';
import { type Bootstrap, type TestServer, startBootstrappedServer } from '../../helpers/server.js';

describe('svc CLI against the real server', () => {
  let server: TestServer;
  let admin: Bootstrap;
  let cleanup: () => Promise<void>;
  let home: string;
  const env = () => ({ XDG_CONFIG_HOME: home });

  before(async () => {
    ({ server, admin, cleanup } = await startBootstrappedServer());
    home = cliHome();
  });
  after(() => cleanup());

  it('login checks the key, then stores it readable by the owner only', async () => {
    const bad = await runCli(['login', '--url', server.url, '--api-key', `svc_sk_${'x'.repeat(43)}`], env());
    assert.equal(bad.code, 3);
    assert.match(bad.stderr, /not_authenticated/);
    const ok = await runCli(['login', '--url', server.url, '--api-key', admin.api_key], env());
    assert.equal(ok.code, 0, ok.stderr);
    const file = path.join(home, 'svc', 'config.json');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).apiKey, admin.api_key);
  });

  it('keys create prints the secret once with a warning; list and revoke use the stored login', async () => {
    const created = await runCli(['keys', 'create', '--name', 'from-cli'], env());
    assert.equal(created.code, 0, created.stderr);
    const secret = /svc_sk_[A-Za-z0-9_-]{43}/.exec(created.stdout)?.[0];
    assert.ok(secret, 'the secret is printed');
    assert.match(created.stderr, /shown only once/);

    const listed = await runCli(['keys', 'list', '--json'], env());
    assert.equal(listed.code, 0, listed.stderr);
    const keys = JSON.parse(listed.stdout).keys as Array<{ id: string; name: string }>;
    const mine = keys.find((k) => k.name === 'from-cli');
    assert.ok(mine);
    assert.ok(!listed.stdout.includes(secret!));

    const table = await runCli(['keys', 'list'], env());
    assert.match(table.stdout.split('\n')[0]!, /^ID\s+NAME\s+SCOPE/);
    assert.ok(table.stdout.includes('from-cli'));

    const revoked = await runCli(['keys', 'revoke', mine!.id, '--json'], env());
    assert.equal(revoked.code, 0);
    assert.ok(JSON.parse(revoked.stdout).revoked_at);
  });

  it('exits non-zero with the error code and message on failures', async () => {
    const missing = await runCli(['keys', 'revoke', 'key_missing'], env());
    assert.equal(missing.code, 4);
    assert.match(missing.stderr, /^Error: not_found: /m);
    const json = await runCli(['keys', 'revoke', 'key_missing', '--json'], env());
    assert.equal(json.code, 4);
    assert.equal(JSON.parse(json.stdout).error.code, 'not_found');
    const conflict = await runCli(['projects', 'create', 'default'], env());
    assert.equal(conflict.code, 5);
    assert.match(conflict.stderr, /name_taken/);
    const usage = await runCli(['members', 'add'], env());
    assert.equal(usage.code, 2, 'a missing argument is a usage error');
  });

  it('lets environment variables override the stored login', async () => {
    const viaEnv = await runCli(['keys', 'list', '--json'], { ...env(), SVC_API_KEY: `svc_sk_${'y'.repeat(43)}` });
    assert.equal(viaEnv.code, 3, 'the wrong key from the environment wins over the stored good one');
    const down = await runCli(['health'], { ...env(), SVC_URL: 'http://127.0.0.1:1' });
    assert.equal(down.code, 8);
    assert.match(down.stderr, /connection_error/);
    assert.ok(!down.stderr.includes('    at '), 'no stack trace');
  });

  it('manages projects and members, and shows health', async () => {
    assert.equal((await runCli(['projects', 'create', 'cli-project'], env())).code, 0);
    const projects = JSON.parse((await runCli(['projects', 'list', '--json'], env())).stdout).projects as Array<{ name: string }>;
    assert.ok(projects.some((p) => p.name === 'cli-project'));
    const added = JSON.parse((await runCli(['members', 'add', 'cli@example.com', '--role', 'member', '--json'], env())).stdout);
    assert.equal(added.role, 'member');
    const demoted = await runCli(['members', 'set-role', added.userId, 'viewer', '--json'], env());
    assert.equal(JSON.parse(demoted.stdout).role, 'viewer');
    const members = await runCli(['members', 'list'], env());
    assert.match(members.stdout, /cli@example\.com\s+viewer/);
    const health = await runCli(['health', '--json'], env());
    assert.equal(health.code, 0);
    assert.equal(JSON.parse(health.stdout).status, 'ok');
  });

  it('exits 8 with the health body when a store is unreachable, also under --json', async () => {
    const holder = new Database(path.join(server.dataDir, 'svc.sqlite'));
    holder.exec('BEGIN IMMEDIATE');
    holder.prepare('INSERT INTO health_probe (id, checked_at) VALUES (3, ?)').run('held');
    try {
      const json = await runCli(['health', '--json'], env());
      assert.equal(json.code, 8, json.stderr);
      assert.deepEqual(JSON.parse(json.stdout), { status: 'unavailable', relational: 'unreachable', analytics: 'reachable', httpStatus: 503 });
      const human = await runCli(['health'], env());
      assert.equal(human.code, 8);
      assert.match(human.stdout, /relational store: unreachable/);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
  });
});
