import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, client } from '../../helpers/http.js';
import { type Bootstrap, type TestServer, hostCommand, startBootstrappedServer } from '../../helpers/server.js';

const LIMIT = 5;

describe('rate limit per organization', () => {
  let server: TestServer;
  let admin: Bootstrap;
  let cleanup: () => Promise<void>;

  before(async () => {
    ({ server, admin, cleanup } = await startBootstrappedServer({ env: { SVC_RATE_LIMIT_PER_MINUTE: String(LIMIT) } }));
  });
  after(() => cleanup());

  it('refuses the request after the limit with 429, Retry-After and RateLimit headers; a new key does not reset it', async () => {
    const api = client(server.url, admin.api_key);
    for (let i = 1; i <= LIMIT; i++) {
      const ok = await api.get('/api/keys');
      assert.equal(ok.status, 200, `request ${i} is within the limit`);
      assert.equal(ok.headers.get('ratelimit-policy'), `"org";q=${LIMIT};w=60`);
      assert.match(ok.headers.get('ratelimit') ?? '', new RegExp(`^"org";r=${LIMIT - i};t=\\d+$`));
    }
    const refused = await api.get('/api/keys');
    assertError(refused, 429, 'too_many_requests');
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    assert.match(refused.headers.get('ratelimit') ?? '', /^"org";r=0;t=\d+$/);

    const fresh = await hostCommand<{ secret: string }>(server.dataDir, ['keys', 'create', '--email', 'admin@localhost', '--name', 'fresh']);
    assertError(await client(server.url, fresh.secret).get('/api/keys'), 429, 'too_many_requests');
  });

  it('does not count or limit unauthenticated health checks', async () => {
    const health = await client(server.url).get('/health');
    assert.equal(health.status, 200);
    assert.equal(health.headers.get('ratelimit'), null);
  });
});
