import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { client } from '../../helpers/http.js';
import { type Bootstrap, type TestServer, startBootstrappedServer } from '../../helpers/server.js';

/** A raw connection that sends `opening`, then `drip` every 200 ms until the server closes it; resolves to what the server sent. */
function slowClient(port: number, opening: string, drip: string, closed: string[], name: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    let timer: NodeJS.Timeout | undefined;
    socket.setEncoding('utf8');
    socket.on('connect', () => {
      socket.write(opening);
      if (drip) timer = setInterval(() => socket.write(drip), 200);
    });
    socket.on('data', (d: string) => (received += d));
    socket.on('error', () => undefined); // a reset after the 408 is the server closing, as expected
    socket.on('close', () => {
      clearInterval(timer);
      closed.push(name);
      resolve(received);
    });
  });
}

describe('slow clients: the header and request timeouts drop them, promptly', () => {
  let server: TestServer;
  let admin: Bootstrap;
  let cleanup: () => Promise<void>;

  before(async () => {
    ({ server, admin, cleanup } = await startBootstrappedServer({
      env: { SVC_HEADERS_TIMEOUT_MS: '1000', SVC_REQUEST_TIMEOUT_MS: '1500', SVC_KEEP_ALIVE_TIMEOUT_MS: '5000' },
    }));
  });
  after(() => cleanup());

  it('answers 408 to trickled headers and bodies before an idle keep-alive connection times out', async () => {
    const closed: string[] = [];
    // The reference: a complete request, then silence; closed by the keep-alive timeout (a per-socket timer).
    const idle = slowClient(server.port, 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', '', closed, 'idle keep-alive');
    const headers = slowClient(server.port, 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-Slow: y\r\n', closed, 'trickled headers');
    const body = slowClient(
      server.port,
      `POST /api/keys HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${admin.api_key}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`,
      ' ',
      closed,
      'trickled body',
    );
    assert.equal((await client(server.url).get('/health')).status, 200, '/health answers while the slow clients hold their connections');
    const [slowHeaders, slowBody, idleAnswer] = await Promise.all([headers, body, idle]);
    assert.match(slowHeaders, /^HTTP\/1\.1 408 /);
    assert.match(slowBody, /^HTTP\/1\.1 408 /);
    assert.match(idleAnswer, /^HTTP\/1\.1 200 /);
    // Node checks these deadlines only every connectionsCheckingInterval (30 s unless set): before the fix
    // the slow clients outlived the 5 s keep-alive connection.
    assert.equal(closed.at(-1), 'idle keep-alive', `order of closing: ${closed.join(', ')}`);
    const keys = await client(server.url, admin.api_key).get('/api/keys');
    assert.equal(keys.body.keys.length, 1, 'the trickled key creation never ran');
    // The timeout cuts the body short: the request ends as a client error, never as an unhandled error (a 500).
    assert.deepEqual(server.output.filter((line) => line.includes('unhandled error')), []);
  });
});
