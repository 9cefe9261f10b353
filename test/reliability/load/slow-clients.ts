import http from 'node:http';
import net from 'node:net';

/** What became of one slow connection. */
export interface SlowOutcome {
  kind: 'headers' | 'body';
  /** Milliseconds from its start until the server closed it. */
  closedAfterMs: number;
  /** The status line the server sent before closing (408 expected), or '' for none. */
  status: string;
}

/**
 * Opens `count` connections that send their requests slowly: half trickle
 * their headers (a header line every `dripMs`, never the blank line), half
 * send complete headers and trickle the body a byte at a time. They never
 * finish and never close: only the server's header and request timeouts end
 * them. Resolves when every one is closed, or after `boundMs` (the ones still
 * open are then destroyed and reported with `closedAfterMs: -1`).
 */
export async function slowClients(opts: {
  port: number;
  count: number;
  dripMs: number;
  boundMs: number;
  /** A body trickler's request head; it declares a Content-Length it never fills. */
  bodyRequest: (i: number) => string;
}): Promise<SlowOutcome[]> {
  const sockets: net.Socket[] = [];
  const givenUp = new Set<net.Socket>();
  const one = (i: number) =>
    new Promise<SlowOutcome>((resolve) => {
      const kind = i % 2 === 0 ? 'headers' : 'body';
      const started = Date.now();
      const socket = net.connect(opts.port, '127.0.0.1');
      sockets.push(socket);
      let received = '';
      let timer: NodeJS.Timeout | undefined;
      socket.setEncoding('utf8');
      socket.on('connect', () => {
        socket.write(kind === 'headers' ? `GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n` : opts.bodyRequest(i));
        timer = setInterval(() => socket.write(kind === 'headers' ? `X-Slow-${i}: y\r\n` : ' '), opts.dripMs);
      });
      socket.on('data', (d: string) => (received += d));
      socket.on('error', () => undefined); // the server resetting a dropped connection is the expected end
      socket.on('close', () => {
        clearInterval(timer);
        resolve({ kind, closedAfterMs: givenUp.has(socket) ? -1 : Date.now() - started, status: received.split('\r\n')[0] ?? '' });
      });
    });
  const all = Promise.all(Array.from({ length: opts.count }, (_, i) => one(i)));
  const bound = setTimeout(() => {
    for (const s of sockets) {
      if (s.closed) continue;
      givenUp.add(s);
      s.destroy();
    }
  }, opts.boundMs);
  try {
    return await all;
  } finally {
    clearTimeout(bound);
  }
}

/**
 * `GET /health` on a new connection each time (an attack that exhausted
 * connection handling would show here first); resolves to the status, or 0
 * when no answer came within `timeoutMs`.
 */
export function healthOnNewConnection(port: number, timeoutMs = 10_000): Promise<{ status: number; ms: number; error?: string }> {
  const started = performance.now();
  let connected: number | undefined;
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/health', agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
    });
    req.on('socket', (sock) => sock.on('connect', () => (connected = performance.now() - started)));
    req.on('timeout', () => req.destroy(new Error(`no answer in ${timeoutMs} ms (connected after ${connected === undefined ? 'never' : Math.round(connected)} ms)`)));
    req.on('error', (err) => resolve({ status: 0, ms: performance.now() - started, error: err.message }));
  });
}

/** One `/health` probe of the attack: when it started (ms into the attack), its status (0: none) and latency. */
export interface Probe {
  at: number;
  status: number;
  ms: number;
  error?: string;
}

/**
 * The slow-client attack: `slowClients` with `/health` probed on a new
 * connection every 250 ms until the last slow client is gone. Resolves to
 * both outcomes.
 */
export async function slowClientAttack(opts: Parameters<typeof slowClients>[0] & { probeTimeoutMs: number }): Promise<{ slow: SlowOutcome[]; probes: Probe[] }> {
  const began = Date.now();
  let over = false;
  const probes: Probe[] = [];
  const attack = slowClients(opts).finally(() => (over = true));
  const prober = (async () => {
    for (let i = 0; i < 10_000 && !over; i++) {
      const at = Date.now() - began;
      probes.push({ at, ...(await healthOnNewConnection(opts.port, opts.probeTimeoutMs)) });
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  const [slow] = await Promise.all([attack, prober]);
  return { slow, probes };
}
