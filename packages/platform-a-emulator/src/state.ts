import { generateConversations, transcriptFor } from './generate.js';
import {
  type AgentRecord,
  type ConversationRecord,
  type ConversationSeed,
  type Fault,
  type GenerateSpec,
  type KeyRecord,
  PERMISSIONS,
  type RequestLogEntry,
  STATUSES,
  type SeedDocument,
} from './types.js';

export const LIST_WINDOW_SECS = 30 * 86400;
const REQUEST_LOG_LIMIT = 200_000;

/** A seed value the emulator refuses; the admin API answers 400 with its message. */
export class SeedError extends Error {}

const nowUnix = () => Math.floor(Date.now() / 1000);

/** Newest first, then by id descending: the order of `GET /v1/conversations`. */
function newerFirst(a: ConversationRecord, b: ConversationRecord): number {
  return b.start_time_unix - a.start_time_unix || (a.conversation_id < b.conversation_id ? 1 : a.conversation_id > b.conversation_id ? -1 : 0);
}

/** Everything the emulator knows: keys, agents, conversations, injected faults and the request log. */
export class EmulatorState {
  readonly keys = new Map<string, KeyRecord>();
  readonly agents = new Map<string, AgentRecord>();
  readonly conversations = new Map<string, ConversationRecord>();
  faults: Fault[] = [];
  private log: RequestLogEntry[] = [];
  private seq = 0;
  private faultSeq = 0;
  private sorted: ConversationRecord[] | null = null;

  /** Replaces everything with the content of a seed document. */
  load(seed: SeedDocument): void {
    this.keys.clear();
    this.agents.clear();
    this.conversations.clear();
    this.faults = [];
    this.sorted = null;
    for (const key of seed.keys ?? []) this.addKey(key);
    for (const agent of seed.agents ?? []) this.addAgent(agent);
    for (const conversation of seed.conversations ?? []) this.addConversation(conversation);
    for (const spec of seed.generate ?? []) this.generate(spec);
  }

  addKey(input: { key: string; permissions: string[]; label?: string }): KeyRecord {
    if (typeof input.key !== 'string' || input.key.length < 8) throw new SeedError('a key is a string of at least 8 characters');
    for (const p of input.permissions ?? []) if (!PERMISSIONS.includes(p as never)) throw new SeedError(`unknown permission "${p}"`);
    const record: KeyRecord = { key: input.key, permissions: [...(input.permissions as KeyRecord['permissions'])], label: input.label ?? `key-${this.keys.size + 1}` };
    this.keys.set(record.key, record);
    return record;
  }

  addAgent(input: Partial<AgentRecord> & { name: string }): AgentRecord {
    if (typeof input.name !== 'string' || !input.name) throw new SeedError('an agent needs a name');
    const modality = input.modality ?? 'voice';
    if (modality !== 'voice' && modality !== 'text') throw new SeedError('modality is voice or text');
    const record: AgentRecord = {
      agent_id: input.agent_id ?? `agent_${this.agents.size + 1}`,
      name: input.name,
      modality,
      created_at_unix: input.created_at_unix ?? nowUnix() - 90 * 86400,
      ...(input.chat ? { chat: input.chat } : {}),
    };
    this.agents.set(record.agent_id, record);
    return record;
  }

  addConversation(seed: ConversationSeed): ConversationRecord {
    if (!this.agents.has(seed.agent_id)) throw new SeedError(`unknown agent "${seed.agent_id}"`);
    const status = seed.status ?? 'done';
    if (!STATUSES.includes(status)) throw new SeedError(`unknown status "${status}"`);
    const id = seed.conversation_id ?? `conv_${this.conversations.size + 1}_${nowUnix()}`;
    const made = transcriptFor(id);
    const done = status === 'done';
    const record: ConversationRecord = {
      conversation_id: id,
      agent_id: seed.agent_id,
      status,
      start_time_unix: seed.start_time_unix ?? nowUnix() - (seed.started_ago_secs ?? 0),
      duration_secs: seed.duration_secs ?? (done ? made.duration_secs : 0),
      termination_reason: seed.termination_reason !== undefined ? seed.termination_reason : done ? made.termination_reason : null,
      transcript: seed.transcript !== undefined ? seed.transcript : done ? made.transcript : null,
      metadata: seed.metadata ?? {},
      incomplete_reads: seed.incomplete_reads ?? 0,
    };
    this.conversations.set(id, record);
    this.sorted = null;
    return record;
  }

  /** Changes a conversation (e.g. in_progress to done); a `done` one without a transcript gets a generated one. */
  updateConversation(id: string, patch: Partial<ConversationSeed>): ConversationRecord | null {
    const c = this.conversations.get(id);
    if (!c) return null;
    if (patch.status !== undefined) {
      if (!STATUSES.includes(patch.status)) throw new SeedError(`unknown status "${patch.status}"`);
      c.status = patch.status;
    }
    if (patch.start_time_unix !== undefined) c.start_time_unix = patch.start_time_unix;
    if (patch.duration_secs !== undefined) c.duration_secs = patch.duration_secs;
    if (patch.termination_reason !== undefined) c.termination_reason = patch.termination_reason;
    if (patch.transcript !== undefined) c.transcript = patch.transcript;
    if (patch.metadata !== undefined) c.metadata = patch.metadata;
    if (patch.incomplete_reads !== undefined) c.incomplete_reads = patch.incomplete_reads;
    if (c.status === 'done' && !c.transcript) {
      const made = transcriptFor(c.conversation_id);
      c.transcript = made.transcript;
      if (!c.duration_secs) c.duration_secs = made.duration_secs;
      c.termination_reason ??= made.termination_reason;
    }
    this.sorted = null;
    return c;
  }

  generate(spec: GenerateSpec): number {
    if (!this.agents.has(spec.agent_id)) throw new SeedError(`unknown agent "${spec.agent_id}"`);
    if (!Number.isInteger(spec.count) || spec.count < 0 || spec.count > 1_000_000) throw new SeedError('count is an integer from 0 to 1000000');
    const made = generateConversations(spec, nowUnix());
    for (const c of made) this.conversations.set(c.conversation_id, c);
    this.sorted = null;
    return made.length;
  }

  /** Every conversation, newest first (cached until the next change). */
  allNewestFirst(): ConversationRecord[] {
    this.sorted ??= [...this.conversations.values()].sort(newerFirst);
    return this.sorted;
  }

  /** What `GET /v1/conversations` may show: started in the last 30 days, optionally one agent and since a time. */
  listable(agentId: string | undefined, sinceUnix: number | undefined): ConversationRecord[] {
    const floor = Math.max(nowUnix() - LIST_WINDOW_SECS, sinceUnix ?? 0);
    return this.allNewestFirst().filter((c) => c.start_time_unix >= floor && (agentId === undefined || c.agent_id === agentId));
  }

  addFault(input: Omit<Fault, 'id'>): Fault {
    const fault: Fault = { ...input, id: `fault_${++this.faultSeq}` };
    if (fault.status !== undefined && (!Number.isInteger(fault.status) || fault.status < 100 || fault.status > 599)) throw new SeedError('status is an HTTP status');
    this.faults.push(fault);
    return fault;
  }

  /** The faults that apply to a request, each used up by one. */
  takeFaults(method: string, path: string, keyLabel: string | null): Fault[] {
    const hits: Fault[] = [];
    for (const f of this.faults) {
      if (f.times !== undefined && f.times <= 0) continue;
      if (f.method && f.method.toUpperCase() !== method) continue;
      if (!path.startsWith(f.path_prefix ?? '/v1/')) continue;
      if (f.key_label && f.key_label !== keyLabel) continue;
      if (f.times !== undefined) f.times--;
      hits.push(f);
    }
    this.faults = this.faults.filter((f) => f.times === undefined || f.times > 0);
    return hits;
  }

  /** Logs a request as it arrives (so `seq` is arrival order); the caller fills in `status` when it answers. */
  record(entry: Omit<RequestLogEntry, 'seq'>): RequestLogEntry {
    const logged = { ...entry, seq: ++this.seq };
    this.log.push(logged);
    if (this.log.length > REQUEST_LOG_LIMIT) this.log = this.log.slice(-REQUEST_LOG_LIMIT / 2);
    return logged;
  }

  requests(afterSeq = 0): RequestLogEntry[] {
    return this.log.filter((e) => e.seq > afterSeq);
  }

  clearRequests(): void {
    this.log = [];
  }

  get lastSeq(): number {
    return this.seq;
  }
}
