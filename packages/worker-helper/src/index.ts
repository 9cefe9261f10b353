import { randomUUID } from 'node:crypto';
import { type Tracer, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { CompressionAlgorithm } from '@opentelemetry/otlp-exporter-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { MonitoringConfigError, checkCredential } from './check.js';
import { type SessionTags, SessionTagger } from './session-tagger.js';
import { type WarningSink, WarningExporter } from './warning-exporter.js';

export { MonitoringConfigError } from './check.js';
export type { SessionTags } from './session-tagger.js';
export type { WarningSink } from './warning-exporter.js';

/** What a realtime voice worker hands its job entrypoint (LiveKit Agents' `JobContext` fits). */
export interface WorkerJobContext {
  job?: { id?: string; room?: { name?: string } | null; agentName?: string; agent_name?: string } | null;
  room?: { name?: string } | null;
  /** Runs when the job ends; the helper flushes its spans there. */
  addShutdownCallback?(callback: () => Promise<void> | void): void;
}

export interface MonitorOptions {
  /** The svc address; default `SVC_URL`. Spans go to `${url}/v1/traces`. */
  url?: string;
  /** A project-scoped key; default `SVC_API_KEY`. */
  apiKey?: string;
  /** The session id; default the job id, else a random UUID. */
  sessionId?: string;
  /** `service.name` of the resource; default `OTEL_SERVICE_NAME`, else `voice-worker`. */
  serviceName?: string;
  /** Check the key with one request before returning (default true). */
  verifyCredential?: boolean;
  /** Delay between batch exports in ms (default 1000). */
  scheduledDelayMs?: number;
  /** Spans buffered before new ones are dropped (default 4096). */
  maxQueueSize?: number;
  /** Per-export timeout including retries, ms (default 10000). */
  exportTimeoutMs?: number;
  /** Where warnings go (default `console`). */
  logger?: WarningSink;
}

/** The monitoring of one session. */
export interface PlatformBMonitor {
  sessionId: string;
  /** A tracer on the installed provider (frameworks use the global one). */
  tracer: Tracer;
  /** Exports every finished span now. */
  flush(): Promise<void>;
}

interface Installed {
  provider: BasicTracerProvider;
  tagger: SessionTagger;
  key: string;
}
let installed: Installed | null = null;

function required(value: string | undefined, variable: string, option: string): string {
  if (value && value.trim()) return value.trim();
  throw new MonitoringConfigError(`monitor_platform_b: set ${variable} (or pass options.${option}).`);
}

function install(url: string, apiKey: string, options: MonitorOptions, sink: WarningSink): Installed {
  const key = `${url} ${apiKey}`;
  if (installed) {
    if (installed.key !== key) sink.warn('svc monitoring: already installed in this process with another SVC_URL/SVC_API_KEY; keeping the first.');
    return installed;
  }
  const exporter = new OTLPTraceExporter({
    url: `${url}/v1/traces`,
    headers: { authorization: `Bearer ${apiKey}` },
    compression: CompressionAlgorithm.GZIP,
    timeoutMillis: options.exportTimeoutMs ?? 10_000,
  });
  const tagger = new SessionTagger();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName ?? process.env.OTEL_SERVICE_NAME ?? 'voice-worker', 'telemetry.sdk.name': 'svc-worker-helper' }),
    spanProcessors: [
      tagger,
      new BatchSpanProcessor(new WarningExporter(exporter, sink), {
        maxExportBatchSize: 512,
        maxQueueSize: options.maxQueueSize ?? 4096,
        scheduledDelayMillis: options.scheduledDelayMs ?? 1000,
        exportTimeoutMillis: options.exportTimeoutMs ?? 10_000,
      }),
    ],
  });
  trace.setGlobalTracerProvider(provider);
  installed = { provider, tagger, key };
  return installed;
}

/**
 * Sends this worker's OpenTelemetry spans to svc as production conversations.
 * Call it first in the job entrypoint, before the agent session starts.
 * Reads `SVC_URL` and a project-scoped `SVC_API_KEY` (options override);
 * tags every span with the session, job and room; flushes when the job shuts
 * down. A missing variable or a refused key throws; an unreachable service
 * only warns — spans are retried by the exporter, then dropped.
 * @example
 * export default defineAgent({ entry: async (ctx) => {
 *   await monitor_platform_b(ctx);
 *   await session.start({ agent, room: ctx.room });
 * } });
 */
export async function monitor_platform_b(ctx: WorkerJobContext, options: MonitorOptions = {}): Promise<PlatformBMonitor> {
  const sink = options.logger ?? console;
  const url = required(options.url ?? process.env.SVC_URL, 'SVC_URL', 'url').replace(/\/+$/, '');
  const apiKey = required(options.apiKey ?? process.env.SVC_API_KEY, 'SVC_API_KEY', 'apiKey');
  if (options.verifyCredential !== false) await checkCredential(`${url}/v1/traces`, apiKey, sink, options.exportTimeoutMs ?? 10_000);
  const { provider, tagger } = install(url, apiKey, options, sink);
  const jobId = ctx.job?.id || undefined;
  const sessionId = options.sessionId ?? jobId ?? randomUUID();
  const tags: SessionTags = { 'svc.session.id': sessionId };
  if (jobId) tags['svc.job.id'] = jobId;
  const roomName = ctx.room?.name || ctx.job?.room?.name;
  if (roomName) tags['svc.room.name'] = roomName;
  const agentName = ctx.job?.agentName || ctx.job?.agent_name;
  if (agentName) tags['svc.agent.name'] = agentName;
  tagger.use(tags);
  const flush = async () => {
    try {
      await provider.forceFlush();
    } catch (err) {
      sink.warn(`svc monitoring: flush failed: ${(err as Error).message}`);
    }
  };
  ctx.addShutdownCallback?.(flush);
  return { sessionId, tracer: provider.getTracer('svc-worker-helper'), flush };
}

/** camelCase alias of {@link monitor_platform_b}. */
export const monitorPlatformB = monitor_platform_b;
