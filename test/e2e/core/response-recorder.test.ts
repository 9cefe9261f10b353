import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { call, client } from '../../helpers/http.js';
import { startBootstrappedServer } from '../../helpers/server.js';

/** Every line the recorders in `dir` wrote. */
function recorded(dir: string): any[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) => readFileSync(path.join(dir, f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)));
}

describe('SVC_RECORD_RESPONSES: the test-only response recorder', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-recorder-'));
    dirs.push(dir);
    return dir;
  };
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('records each response with its operation, status, media type, headers and body', async () => {
    const dir = tempDir();
    const { server, admin, cleanup } = await startBootstrappedServer({ env: { SVC_RECORD_RESPONSES: dir } });
    try {
      const api = client(server.url, admin.api_key);
      assert.equal((await api.get('/api/keys')).status, 200);
      assert.equal((await call(server.url, 'GET', '/api/keys')).status, 401);
      assert.equal((await call(server.url, 'GET', '/no/such/path')).status, 404);
      assert.equal((await api.put('/api/monitoring/platform_b-agents?project=default')).status, 200);
      assert.equal((await api.delete('/api/monitoring/platform_b-agents?project=default')).status, 204);
    } finally {
      await cleanup();
    }
    const lines = recorded(dir);
    assert.deepEqual(lines.map((l) => [l.operationId, l.status]), [
      ['listKeys', 200],
      ['listKeys', 401],
      [undefined, 404],
      ['enablePlatformBMonitoring', 200],
      ['deleteMonitoringSetup', 204],
    ]);
    assert.equal(lines[0].contentType, 'application/json');
    assert.ok(Array.isArray(lines[0].body.keys));
    assert.equal(lines[1].body.error, 'not_authenticated');
    assert.match(lines[1].headers['x-request-id'], /\S/);
    assert.equal(lines[4].body, null);
    assert.equal(lines[4].contentType, null);
  });
});
