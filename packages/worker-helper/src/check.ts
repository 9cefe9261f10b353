import type { WarningSink } from './warning-exporter.js';

/** A configuration the service refused (org-wide or invalid key): thrown at start, never later. */
export class MonitoringConfigError extends Error {
  override readonly name = 'MonitoringConfigError';
}

/** Reads `<code>: <message>` out of a protobuf google.rpc.Status (field 2) without a protobuf runtime. */
export function statusMessage(body: Uint8Array): string | null {
  let i = 0;
  const varint = () => {
    let result = 0;
    let shift = 0;
    for (;;) {
      const byte = body[i++];
      if (byte === undefined) throw new Error('truncated');
      result += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return result;
      shift += 7;
    }
  };
  try {
    while (i < body.length) {
      const tag = varint();
      const wire = tag & 7;
      if (wire === 0) varint();
      else if (wire === 2) {
        const length = varint();
        if (tag >>> 3 === 2) return Buffer.from(body.subarray(i, i + length)).toString('utf8');
        i += length;
      } else return null;
    }
  } catch {
    return null;
  }
  return null;
}

/**
 * Sends one empty export to check the key before the call starts: a refusal
 * (401, 403 — an org-wide key) throws with the server's message; an
 * unreachable or failing service only warns, so the call goes on.
 */
export async function checkCredential(endpoint: string, apiKey: string, sink: WarningSink, timeoutMs: number): Promise<void> {
  let response: Response;
  try {
    response = await fetch(endpoint, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/x-protobuf' },
      body: new Uint8Array(0),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    sink.warn(`svc monitoring: ${endpoint} is not reachable (${(err as Error).message}); spans will be retried and dropped if it stays down.`);
    return;
  }
  if (response.ok) return;
  const message = statusMessage(new Uint8Array(await response.arrayBuffer())) ?? `HTTP ${response.status}`;
  if (response.status === 401 || response.status === 403) throw new MonitoringConfigError(`svc refused SVC_API_KEY: ${message}`);
  sink.warn(`svc monitoring: the service answered ${response.status} (${message}); spans will be retried.`);
}
