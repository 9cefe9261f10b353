import { type Server, createServer } from 'node:http';
import type Koa from 'koa';
import { type Config, ConfigError } from './config.js';
import { createLogger, describeError } from './logging/logger.js';
import { bootstrapInstance } from './organizations/bootstrap.js';
import { openRuntime } from './runtime.js';

/** Prints the first start's admin key to the terminal (stderr), once, outside the JSON log. */
function printBootstrapBanner(result: { organization_id: string; project_id: string; api_key: string }): void {
  process.stderr.write(
    [
      '',
      '  svc: first start — created the organization, an admin user and the project "default".',
      `  Admin API key (shown this once; store it now): ${result.api_key}`,
      '  Use it as "Authorization: Bearer <key>", or: svc login --url http://127.0.0.1:3100 --api-key <key>',
      '',
    ].join('\n') + '\n',
  );
}

/**
 * The HTTP server of the app with the connection timeouts of the
 * configuration: a client must send its headers within `headersTimeoutMs`
 * and its whole request within `requestTimeoutMs` (else 408 and the
 * connection is closed), and an idle keep-alive connection is closed after
 * `keepAliveTimeoutMs`. Node enforces the first two only when it checks its
 * connections, every 30 s by default: a slow client could hold a connection
 * up to 30 s past its deadline, so the check runs every second.
 */
export function createHttpServer(app: Koa, config: Pick<Config, 'headersTimeoutMs' | 'requestTimeoutMs' | 'keepAliveTimeoutMs'>): Server {
  const server = createServer(
    {
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      keepAliveTimeout: config.keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, config.headersTimeoutMs),
    },
    app.callback(),
  );
  return server;
}

/**
 * Starts the server: lock, stores, first-start bootstrap, listen. SIGTERM and
 * SIGINT stop accepting, let in-flight requests finish (up to the shutdown
 * timeout), stop background work and close both stores.
 */
export async function startServer(config: Config): Promise<void> {
  const log = createLogger(config.logLevel, { service: 'svc-server' });
  const runtime = await openRuntime(config, log);

  const server = createHttpServer(runtime.app, config).listen(config.port, config.host);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
  } catch (err) {
    await runtime.close();
    const code = (err as { code?: string }).code;
    if (code === 'EADDRINUSE') throw new ConfigError(`${config.host}:${config.port} is already in use; set PORT or --port`);
    if (code === 'EACCES') throw new ConfigError(`no permission to listen on ${config.host}:${config.port}`);
    throw err;
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const first = await bootstrapInstance(runtime.relational, runtime.keys, config.bootstrapAdminEmail);
  if (first) printBootstrapBanner(first);
  log.info('listening', { url: `http://${config.host}:${port}`, host: config.host, port, data_dir: config.dataDir });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('shutting down', { signal });
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    runtime.drain();
    server.closeIdleConnections();
    const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), config.shutdownTimeoutMs).unref());
    if ((await Promise.race([closed, timeout])) === 'timeout') {
      log.warn('in-flight requests did not finish in time; closing their connections');
      server.closeAllConnections();
    }
    try {
      await runtime.close();
      log.info('stopped');
      process.exit(0);
    } catch (err) {
      log.error('failed to close the stores cleanly', describeError(err));
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
