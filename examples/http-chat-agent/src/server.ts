import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ChatRequest, respond } from './agent.js';

export interface AgentOptions {
  port?: number;
  host?: string;
  /** When set, requests need `Authorization: Bearer <token>`. */
  token?: string | undefined;
}

/** What the agent saw of one request (`GET /_requests`), for demos and tests. Never the token itself. */
export interface SeenRequest {
  conversation_id: string;
  messages: number;
  authorized: boolean;
  /** Values of the request's `x-*` headers. */
  headers: Record<string, string>;
}

export interface RunningAgent {
  /** The chat endpoint: use it as the connection's `config.url`. */
  url: string;
  server: Server;
  close(): Promise<void>;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
}

/** Serves the agent: `POST /chat` speaks http_chat; `GET /_requests` lists what arrived. */
export async function startAgent(options: AgentOptions = {}): Promise<RunningAgent> {
  const seen: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && req.url === '/_requests') return reply(200, { requests: seen });
    if (req.method !== 'POST' || req.url !== '/chat') return reply(404, { error: 'not found' });
    const authorized = !options.token || req.headers.authorization === `Bearer ${options.token}`;
    readJson(req)
      .then((body) => {
        const request = body as ChatRequest;
        const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k.startsWith('x-')).map(([k, v]) => [k, String(v)]));
        seen.push({ conversation_id: String(request.conversation_id), messages: request.messages?.length ?? 0, authorized, headers });
        if (seen.length > 10_000) seen.shift();
        if (!authorized) return reply(401, { error: 'missing or wrong bearer token' });
        if (!Array.isArray(request.messages)) return reply(400, { error: 'messages must be an array' });
        reply(200, respond(request));
      })
      .catch((err: unknown) => reply(400, { error: (err as Error).message }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://${options.host ?? '127.0.0.1'}:${port}/chat`, server, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
