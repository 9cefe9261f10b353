import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './paths.js';
import type { RequestLogEntry } from '../../packages/platform-a-emulator/src/types.js';
import { startHelper } from './process.js';

/** The built emulator binary. */
export const EMULATOR_BIN = path.join(ROOT, 'packages/platform-a-emulator/bin/svc-platform-a-emulator.js');

/** One entry of the emulator's request log (`GET /_admin/requests`): the emulator's own type. */
export type EmulatorRequestEntry = RequestLogEntry;

/** A platform_a emulator running as its own process, with its admin API at hand. */
export interface EmulatorProcess {
  url: string;
  process: ChildProcess;
  admin<T = any>(method: string, path: string, body?: unknown): Promise<T>;
  /** Requests to the platform API (not the admin API) after `afterSeq`. */
  requests(afterSeq?: number): Promise<{ requests: EmulatorRequestEntry[]; last_seq: number }>;
  addFault(fault: Record<string, unknown>): Promise<{ id: string }>;
  clearFaults(): Promise<void>;
  /** Conversation ids the platform holds, newest first (optionally only those inside the 30-day list window). */
  conversationIds(query?: { agent_id?: string; status?: string; within_window?: boolean }): Promise<string[]>;
  stop(): Promise<void>;
}

/** Starts `svc-platform-a-emulator` on a free port with a seed document. */
export async function startEmulator(seed: Record<string, unknown> = {}): Promise<EmulatorProcess> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'svc-emu-')), 'seed.json');
  writeFileSync(file, JSON.stringify(seed));
  const helper = await startHelper(EMULATOR_BIN, ['--seed', file]);
  const admin = <T>(method: string, p: string, body?: unknown): Promise<T> => helper.json<T>(method, p, body);
  return {
    url: helper.url,
    process: helper.process,
    admin,
    requests: (afterSeq = 0) => admin('GET', `/_admin/requests?after_seq=${afterSeq}`),
    addFault: (fault) => admin('POST', '/_admin/faults', fault),
    clearFaults: () => admin('DELETE', '/_admin/faults'),
    async conversationIds(query = {}) {
      const qs = new URLSearchParams();
      if (query.agent_id) qs.set('agent_id', query.agent_id);
      if (query.status) qs.set('status', query.status);
      if (query.within_window) qs.set('within_window', 'true');
      const { conversations } = await admin<{ conversations: Array<{ conversation_id: string }> }>('GET', `/_admin/conversations?${qs}`);
      return conversations.map((c) => c.conversation_id);
    },
    stop: () => helper.stop(),
  };
}

/** Polls `probe` until it returns a truthy value; fails with the last value after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 60_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      last = await probe();
      if (last) return last as T;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${last instanceof Error ? last.message : JSON.stringify(last)?.slice(0, 2000)}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
