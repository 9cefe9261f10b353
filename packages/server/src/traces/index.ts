import os from 'node:os';
import { integer } from '../config.js';
import type { ConversationRepository } from '../conversations/repository.js';
import { SpanConversationDeriver } from '../conversations/span-deriver.js';
import type { Route } from '../http/define-route.js';
import type { Logger } from '../logging/logger.js';
import { type SpanDecoder, SpanDecoderPool, inlineSpanDecoder } from '../otlp/decoder-pool.js';
import type { BackgroundTask } from '../runtime.js';
import type { AnalyticsStore } from '../storage/duckdb/connection.js';
import type { SpanIngestListener } from './listener.js';
import { DuckdbSpanRepository } from './repository.js';
import { traceRoutes } from './routes.js';
import { SpanWriter } from './writer.js';

export type { SpanIngestListener, SpansStoredEvent } from './listener.js';

/**
 * The trace-ingest capability: the span writer on its own DuckDB connection,
 * the conversation deriver, and their routes. `listeners` are told after each
 * commit (the monitoring setup's `last_received_at` hangs here).
 */
export async function openTraceCapability(deps: {
  analytics: AnalyticsStore;
  conversations: ConversationRepository;
  env: NodeJS.ProcessEnv;
  log: Logger;
  listeners: SpanIngestListener[];
}): Promise<{ routes: Route[]; tasks: BackgroundTask[] }> {
  const log = deps.log.child({ component: 'traces' });
  const spans = new DuckdbSpanRepository(deps.analytics);
  const connection = await deps.analytics.connect();
  // Spans are write-heavy: checkpointing at DuckDB's default 16 MB of WAL rewrites the span index every few commits.
  const threshold = deps.env.SVC_ANALYTICS_CHECKPOINT_THRESHOLD || '256MB';
  if (!/^\d+(KB|MB|GB)$/i.test(threshold)) throw new Error(`SVC_ANALYTICS_CHECKPOINT_THRESHOLD must look like 256MB, got "${threshold}"`);
  await connection.run(`SET checkpoint_threshold = '${threshold}'`);
  let deriver: SpanConversationDeriver | undefined;
  const writer = await SpanWriter.open(connection, {
    maxQueuedSpans: integer(deps.env, 'SVC_TRACE_QUEUE_MAX_SPANS', 200_000, 1),
    maxCommitSpans: integer(deps.env, 'SVC_TRACE_COMMIT_MAX_SPANS', 50_000, 1),
    log,
    listeners: deps.listeners,
    onCommitted: () => deriver?.notify(),
  });
  deriver = new SpanConversationDeriver(spans, deps.conversations, {
    debounceMs: integer(deps.env, 'SVC_TRACE_DERIVE_DELAY_MS', 250, 1),
    batch: 500,
    log,
    clearPending: (traces) => writer.clearPending(traces),
    ingestBusy: () => writer.busy,
    maxDeferMs: integer(deps.env, 'SVC_TRACE_DERIVE_MAX_DEFER_MS', 5000, 1),
  });
  // Decoding runs beside the event loop: one thread per core but the one the event loop and DuckDB need.
  const threads = integer(deps.env, 'SVC_TRACE_DECODE_THREADS', Math.max(1, Math.min(4, os.availableParallelism() - 1)), 0);
  const decoder: SpanDecoder = threads > 0 ? new SpanDecoderPool({ threads, log }) : inlineSpanDecoder;
  const writerTask: BackgroundTask = {
    name: 'span-writer',
    start: () => undefined,
    stop: async () => {
      await decoder.close();
      await writer.close();
    },
  };
  return { routes: traceRoutes({ writer, decoder, spans, conversations: deps.conversations }), tasks: [deriver, writerTask] };
}
