import type { Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';

/** The attributes `monitor_platform_b` puts on every span of a session. */
export interface SessionTags {
  'svc.session.id': string;
  'svc.job.id'?: string;
  'svc.room.name'?: string;
  'svc.agent.name'?: string;
}

/**
 * Tags every span with its session: a trace keeps the session that was
 * current when its first span started, so spans of a call that outlive a
 * later `monitor_platform_b` call in the same process stay with their call.
 */
export class SessionTagger implements SpanProcessor {
  private current: SessionTags | null = null;
  private readonly byTrace = new Map<string, SessionTags>();

  /** Makes `tags` the session of traces started from now on. */
  use(tags: SessionTags): void {
    this.current = tags;
  }

  onStart(span: Span, _parent: Context): void {
    const traceId = span.spanContext().traceId;
    let tags = this.byTrace.get(traceId);
    if (!tags && this.current) {
      tags = this.current;
      this.byTrace.set(traceId, tags);
    }
    if (tags) for (const [key, value] of Object.entries(tags)) if (value !== undefined) span.setAttribute(key, value);
  }

  onEnd(span: ReadableSpan): void {
    if (!span.parentSpanContext) this.byTrace.delete(span.spanContext().traceId);
  }

  async forceFlush(): Promise<void> {}

  async shutdown(): Promise<void> {
    this.byTrace.clear();
  }
}
