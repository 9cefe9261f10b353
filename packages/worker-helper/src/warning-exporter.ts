import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

/** Where the helper writes its warnings (a logger, or `console` by default). */
export interface WarningSink {
  warn(message: string): void;
}

/**
 * Wraps the OTLP exporter: a batch the exporter gave up on (after its own
 * retries) is reported as one warning line and dropped — a worker's calls
 * never fail because the monitoring service is unreachable.
 */
export class WarningExporter implements SpanExporter {
  constructor(
    private readonly inner: SpanExporter,
    private readonly sink: WarningSink,
  ) {}

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    try {
      this.inner.export(spans, (result) => {
        if (result.code !== ExportResultCode.SUCCESS) {
          this.sink.warn(`svc monitoring: dropped ${spans.length} span(s) after retries: ${result.error?.message ?? 'export failed'}`);
        }
        resultCallback(result);
      });
    } catch (err) {
      this.sink.warn(`svc monitoring: dropped ${spans.length} span(s): ${(err as Error).message}`);
      resultCallback({ code: ExportResultCode.FAILED, error: err as Error });
    }
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}
