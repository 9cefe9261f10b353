import { readFileSync } from 'node:fs';
import { decodeStatus } from '../../helpers/otlp.js';

/** The resident set size of a process in bytes, from `/proc/<pid>/status` (VmRSS); null once it has exited. */
export function rssBytes(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Samples a process's RSS every `everyMs` until stopped; `peak` is the largest sample. */
export function sampleRss(pid: number, everyMs = 100) {
  const first = rssBytes(pid) ?? 0;
  const state = { baseline: first, peak: first, samples: 1 };
  const timer = setInterval(() => {
    const now = rssBytes(pid);
    if (now === null) return;
    state.samples += 1;
    if (now > state.peak) state.peak = now;
  }, everyMs);
  return { state, stop: () => clearInterval(timer) };
}

/** What a response was found to be: fine, or the rule it broke. */
export type Verdict = { ok: true } | { ok: false; why: string };

/**
 * The refusal rules of the contract: no 5xx at all, and every refusal
 * carries `{error, message, details?}` as JSON — or, for protobuf trace
 * exports, a `google.rpc.Status` whose message is `<code>: <text>`.
 */
export function judge(status: number, contentType: string, body: Buffer, protobufRefusal: boolean): Verdict {
  if (status === 0) return { ok: false, why: 'no response (connection failed or reset)' };
  if (status >= 500) return { ok: false, why: `status ${status}: ${body.toString('utf8').slice(0, 300)}` };
  if (status < 400) return { ok: true };
  if (protobufRefusal) {
    if (!contentType.startsWith('application/x-protobuf')) return { ok: false, why: `protobuf request refused with ${contentType || 'no content type'}` };
    try {
      const decoded = decodeStatus(body);
      return /^[a-z_]+: ./s.test(decoded.message) && decoded.code > 0 ? { ok: true } : { ok: false, why: `google.rpc.Status without "<code>: <message>": ${JSON.stringify(decoded)}` };
    } catch (err) {
      return { ok: false, why: `undecodable google.rpc.Status: ${(err as Error).message}` };
    }
  }
  if (!contentType.startsWith('application/json')) return { ok: false, why: `refusal as ${contentType || 'no content type'}` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return { ok: false, why: 'refusal body is not JSON' };
  }
  const b = parsed as Record<string, unknown>;
  const shapeOk =
    b !== null &&
    typeof b === 'object' &&
    !Array.isArray(b) &&
    typeof b.error === 'string' &&
    /^[a-z_]+$/.test(b.error) &&
    typeof b.message === 'string' &&
    (b.details === undefined || (typeof b.details === 'object' && b.details !== null && !Array.isArray(b.details))) &&
    Object.keys(b).every((k) => k === 'error' || k === 'message' || k === 'details');
  return shapeOk ? { ok: true } : { ok: false, why: `refusal body is not {error, message, details?}: ${body.toString('utf8').slice(0, 200)}` };
}

/** One request on the wire: status, content type and body bytes (status 0 when no response came). */
export async function send(url: string, init: { method: string; headers: Record<string, string>; body?: string | Buffer }): Promise<{ status: number; contentType: string; body: Buffer }> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(60_000) });
    return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: Buffer.from(await res.arrayBuffer()) };
  } catch (err) {
    return { status: 0, contentType: '', body: Buffer.from(String((err as Error).cause ?? err)) };
  }
}

/** Runs `work(i)` for i in [0, total) with at most `concurrency` in flight. */
export async function pool(total: number, concurrency: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < total) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
}
