import { Worker } from 'node:worker_threads';
import type { ErrorCode } from '@svc/contract';
import { AppError } from '../http/errors.js';
import type { Logger } from '../logging/logger.js';
import type { OtlpEncoding, OtlpWireBody } from './body.js';
import type { SpanColumns } from './columns.js';
import { decodeOtlpSpans } from './decode.js';

/** Turns a request body into span columns: inflate, decode, validate. */
export interface SpanDecoder {
  /** Resolves to the request's columns; rejects with the `AppError` refusal of a bad body. */
  decode(encoding: OtlpEncoding, wire: OtlpWireBody, limit: number): Promise<SpanColumns>;
  close(): Promise<void>;
}

/** One body for a decoder thread. */
export interface DecodeTask {
  id: number;
  encoding: OtlpEncoding;
  gzip: boolean;
  body: Uint8Array;
  limit: number;
}

/** A decoder thread's answer: the columns, a refusal (an `AppError` of the body), or an unexpected failure. */
export type DecodeReply =
  | { id: number; spans: SpanColumns }
  | { id: number; refusal: { code: ErrorCode; message: string; details: Record<string, unknown> | undefined } }
  | { id: number; failure: string };

/** Decodes on the calling thread (`SVC_TRACE_DECODE_THREADS=0`, and when no decoder thread is alive). */
export const inlineSpanDecoder: SpanDecoder = {
  decode: async (encoding, wire, limit) => decodeOtlpSpans(encoding, wire, limit),
  close: async () => undefined,
};

interface Pending {
  resolve: (spans: SpanColumns) => void;
  reject: (err: unknown) => void;
}

interface DecoderThread {
  worker: Worker;
  pending: Map<number, Pending>;
  alive: boolean;
  startedAt: number;
}

const stopped = () => new AppError('unavailable', 'The span decoder stopped while reading this request; retry.', undefined, { 'Retry-After': '1' });

/**
 * Decodes request bodies on worker threads, so inflating and decoding
 * (most of ingest's JavaScript) overlap the event loop's HTTP and DuckDB
 * work. A body goes to the thread with the fewest bodies in hand, is
 * transferred rather than copied when it owns its memory, and comes back
 * as columns whose integer buffer is transferred too; only the strings are
 * copied. A refusal comes back as the same `AppError`. A thread that dies
 * fails its requests with 503 and is replaced; with none alive, bodies are
 * decoded inline.
 */
export class SpanDecoderPool implements SpanDecoder {
  private readonly threads: DecoderThread[] = [];
  private nextId = 1;
  private closed = false;

  /** `script` is the thread's module (tests substitute one); the default is `decoder-thread`. */
  constructor(private readonly options: { threads: number; log: Logger; script?: URL }) {
    for (let i = 0; i < options.threads; i++) this.threads.push(this.spawn(i));
  }

  decode(encoding: OtlpEncoding, wire: OtlpWireBody, limit: number): Promise<SpanColumns> {
    if (this.closed) return Promise.reject(new AppError('unavailable', 'The server is shutting down; retry shortly.', undefined, { 'Retry-After': '1' }));
    let thread: DecoderThread | undefined;
    for (const t of this.threads) if (t.alive && (!thread || t.pending.size < thread.pending.size)) thread = t;
    if (!thread) return inlineSpanDecoder.decode(encoding, wire, limit);
    const id = this.nextId++;
    const body = wire.body;
    // Transfer the body's memory only when nothing else shares it (small Buffers live in a shared pool).
    const owned = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength && !(body.buffer instanceof SharedArrayBuffer);
    const task: DecodeTask = { id, encoding, gzip: wire.gzip, body, limit };
    const target = thread;
    return new Promise<SpanColumns>((resolve, reject) => {
      target.pending.set(id, { resolve, reject });
      target.worker.postMessage(task, owned ? [body.buffer as ArrayBuffer] : []);
    });
  }

  /** Stops the threads; requests still in them fail with 503. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.map((t) => t.worker.terminate()));
  }

  private spawn(index: number): DecoderThread {
    const ts = import.meta.url.endsWith('.ts');
    const script = this.options.script ?? new URL(ts ? './decoder-thread.ts' : './decoder-thread.js', import.meta.url);
    const worker = new Worker(script, { name: `span-decoder-${index}` });
    const thread: DecoderThread = { worker, pending: new Map(), alive: true, startedAt: Date.now() };
    worker.unref();
    worker.on('message', (reply: DecodeReply) => {
      const pending = thread.pending.get(reply.id);
      if (!pending) return;
      thread.pending.delete(reply.id);
      if ('spans' in reply) pending.resolve(reply.spans);
      else if ('refusal' in reply) pending.reject(new AppError(reply.refusal.code, reply.refusal.message, reply.refusal.details));
      else {
        this.options.log.error('span decoding failed', { error_message: reply.failure });
        pending.reject(new Error(`span decoding failed: ${reply.failure}`));
      }
    });
    worker.on('error', (err) => this.options.log.error('span decoder thread failed', { error_message: err.message }));
    worker.once('exit', (code) => {
      thread.alive = false;
      for (const pending of thread.pending.values()) pending.reject(stopped());
      thread.pending.clear();
      if (this.closed) return;
      this.options.log.warn('span decoder thread exited; replacing it', { exit_code: code });
      // A thread that dies at once (a broken install) is replaced after a pause, not in a tight loop.
      const pause = Date.now() - thread.startedAt < 1000 ? 1000 : 0;
      setTimeout(() => {
        if (!this.closed) this.threads[index] = this.spawn(index);
      }, pause).unref();
    });
    return thread;
  }
}
