/** A test the crash suite edits: the version it expects to edit from next. */
export interface EditedTest {
  id: string;
  expectedVersionId: string;
}

/** A minted version as the client was told: its number and the scenario it froze. */
export interface AckedVersion {
  testId: string;
  version: number;
  scenario: string;
}

/** One OTLP request of the crash suite: a trace of its own, its span ids, the protobuf body. */
export interface SpanBatch {
  traceId: string;
  spanIds: string[];
  body: Buffer;
}

/** The writes of one round that the clients saw acknowledged (for the API checks after the restart). */
export interface RoundWrites {
  keys: string[];
  versions: string[];
  traces: string[];
  conversations: string[];
}

const emptyRound = (): RoundWrites => ({ keys: [], versions: [], traces: [], conversations: [] });

/**
 * Everything the clients of the crash suite were told: every 2xx they
 * received before a kill is an acknowledged write that must survive every
 * later crash. Requests without an answer (the kill cut them) are kept
 * apart: their outcome is unknown, so they may or may not be stored, but
 * never twice.
 */
export class Ledger {
  /** Acknowledged keys: id -> secret. */
  readonly keys = new Map<string, string>();
  /** Acknowledged test versions by id. */
  readonly versions = new Map<string, AckedVersion>();
  /** Acknowledged spans: trace id -> span ids. */
  readonly spans = new Map<string, Set<string>>();
  /** Span batches sent without an answer: re-sent after the restart, as an exporter retries. */
  unanswered: SpanBatch[] = [];
  /** platform_a conversations (external ids) the server listed before a kill. */
  readonly conversations = new Set<string>();
  /** Responses no client should ever get (5xx, unexpected refusals), as `METHOD path status`. */
  readonly unexpected: string[] = [];
  /** Requests cut by a kill (no answer). */
  cut = 0;
  /** The current round's acknowledged writes. */
  round: RoundWrites = emptyRound();

  /** Starts a new round's record and returns the previous one. */
  nextRound(): RoundWrites {
    const previous = this.round;
    this.round = emptyRound();
    return previous;
  }

  ackKey(id: string, secret: string): void {
    this.keys.set(id, secret);
    this.round.keys.push(id);
  }

  ackVersion(id: string, v: AckedVersion): void {
    this.versions.set(id, v);
    this.round.versions.push(id);
  }

  ackSpans(traceId: string, spanIds: readonly string[]): void {
    const known = this.spans.get(traceId) ?? new Set<string>();
    for (const id of spanIds) known.add(id);
    this.spans.set(traceId, known);
    this.round.traces.push(traceId);
  }

  seeConversation(externalId: string): void {
    if (this.conversations.has(externalId)) return;
    this.conversations.add(externalId);
    this.round.conversations.push(externalId);
  }

  /** Every acknowledged write so far (the figure "acknowledged writes checked" counts these per round). */
  get size(): number {
    let spans = 0;
    for (const ids of this.spans.values()) spans += ids.size;
    return this.keys.size + this.versions.size + spans + this.conversations.size;
  }
}
