import type { IncomingMessage, ServerResponse } from 'node:http';

/** A request as the route handlers see it. */
export interface EmulatorRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  body: unknown;
  /** Path parameters captured by the route pattern. */
  params: string[];
}

export interface EmulatorResponse {
  status: number;
  body?: unknown;
  /** Sent as is (not JSON) when set. */
  text?: string;
  headers?: Record<string, string>;
}

export type Handler = (req: EmulatorRequest) => EmulatorResponse | Promise<EmulatorResponse>;

export interface RouteEntry {
  method: string;
  pattern: RegExp;
  handler: Handler;
}

/** A route: `{name}` segments become captured parameters. */
export function route(method: string, path: string, handler: Handler): RouteEntry {
  const pattern = new RegExp('^' + path.replace(/\{\w+\}/g, '([^/]+)') + '$');
  return { method, pattern, handler };
}

/** The platform's error body: `{"error": {"code", "message", ...}}`. */
export function platformError(status: number, code: string, message: string, extra: Record<string, unknown> = {}): EmulatorResponse {
  return { status, body: { error: { code, message, ...extra } } };
}

export const json = (body: unknown, status = 200): EmulatorResponse => ({ status, body });

/** Reads a JSON body of at most 5 MiB; an empty body is `undefined`. */
export async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 5 * 1024 * 1024) throw new BodyError('body too large');
    chunks.push(chunk);
  }
  if (size === 0) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new BodyError('body is not valid JSON');
  }
}

/** A request body the emulator cannot read (too large, not JSON): answered with 400. */
export class BodyError extends Error {}

/** Writes a response. */
export function send(res: ServerResponse, out: EmulatorResponse): void {
  for (const [name, value] of Object.entries(out.headers ?? {})) res.setHeader(name, value);
  if (out.text !== undefined) {
    res.writeHead(out.status, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(out.text);
  } else if (out.body === undefined) {
    res.writeHead(out.status);
    res.end();
  } else {
    res.writeHead(out.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(out.body));
  }
}

/** An integer query parameter within bounds, its default when absent, or null when malformed. */
export function intParam(value: string | undefined, fallback: number | undefined, min: number, max: number): number | undefined | null {
  if (value === undefined || value === '') return fallback;
  if (!/^-?\d+$/.test(value)) return null;
  const n = Number(value);
  return n < min || n > max ? null : n;
}
