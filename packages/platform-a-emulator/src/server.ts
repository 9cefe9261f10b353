import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { adminRoutes } from './admin-routes.js';
import { ChatEngine } from './chat.js';
import { BodyError, type EmulatorResponse, type RouteEntry, platformError, readBody, send } from './http.js';
import { platformRoutes } from './platform-routes.js';
import { EmulatorState, SeedError } from './state.js';
import type { SeedDocument } from './types.js';

export interface EmulatorOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  seed?: SeedDocument;
}

/** A running emulator. */
export interface Emulator {
  url: string;
  port: number;
  state: EmulatorState;
  server: Server;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function match(routes: RouteEntry[], method: string, path: string): { entry: RouteEntry; params: string[] } | 'method' | null {
  let pathKnown = false;
  for (const entry of routes) {
    const m = entry.pattern.exec(path);
    if (!m) continue;
    pathKnown = true;
    if (entry.method === method) return { entry, params: m.slice(1).map((p) => decodeURIComponent(p)) };
  }
  return pathKnown ? 'method' : null;
}

/** The response an injected fault forces, if any; delays are waited here. */
async function applyFaults(state: EmulatorState, req: IncomingMessage, res: ServerResponse, path: string, keyLabel: string | null): Promise<EmulatorResponse | 'dropped' | null> {
  for (const fault of state.takeFaults(req.method ?? 'GET', path, keyLabel)) {
    if (fault.delay_ms) await sleep(fault.delay_ms);
    if (fault.drop) {
      res.socket?.destroy();
      return 'dropped';
    }
    if (fault.status !== undefined) {
      const headers: Record<string, string> = fault.retry_after !== undefined ? { 'retry-after': String(fault.retry_after) } : {};
      if (fault.body !== undefined) return { status: fault.status, text: fault.body, headers };
      if (fault.status === 429) return { status: 429, body: { error: { code: 'rate_limited' } }, headers };
      return { status: fault.status, text: `upstream error ${fault.status}`, headers };
    }
  }
  return null;
}

/**
 * Starts the emulator: the platform API (`/v1`, platform-a.md) and the admin
 * API (`/_admin`). Every `/v1` request is logged on arrival (with the key's
 * label, never the key; status 0 until answered or when dropped) and may meet an injected fault.
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const state = new EmulatorState();
  if (options.seed) state.load(options.seed);
  const chat = new ChatEngine(state);
  const platform = platformRoutes(state, chat);
  const admin = adminRoutes(state, chat);

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://emulator');
      const path = url.pathname;
      const query = Object.fromEntries(url.searchParams);
      const isPlatform = path.startsWith('/v1/');
      const presented = req.headers['x-api-key'];
      const keyLabel = typeof presented === 'string' ? (state.keys.get(presented)?.label ?? 'unknown') : null;
      const logged = isPlatform ? state.record({ at_ms: Date.now(), method: req.method ?? 'GET', path, query, key_label: keyLabel, status: 0 }) : null;
      let out: EmulatorResponse;
      try {
        const faulted = isPlatform ? await applyFaults(state, req, res, path, keyLabel) : null;
        if (faulted === 'dropped') return; // logged with status 0
        if (faulted) out = faulted;
        else {
          const found = match(isPlatform ? platform : admin, req.method ?? 'GET', path);
          if (found === null) out = platformError(404, 'not_found', `No route ${path}.`);
          else if (found === 'method') out = platformError(405, 'method_not_allowed', `${req.method} is not allowed on ${path}.`);
          else {
            const body = await readBody(req);
            out = await found.entry.handler({ method: req.method ?? 'GET', path, query, headers: req.headers, body, params: found.params });
          }
        }
      } catch (err) {
        if (err instanceof SeedError || err instanceof BodyError) out = platformError(400, 'invalid_request', err.message);
        else out = { status: 500, text: 'internal emulator error' };
      }
      if (logged) logged.status = out.status;
      send(res, out);
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 3200, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    state,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
