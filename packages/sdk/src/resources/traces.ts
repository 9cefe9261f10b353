import { type TraceDetail, getTrace } from '@svc/contract';
import type { Transport } from '../core/transport.js';

/** Traces received from platform_b workers over OTLP. */
export class TracesResource {
  constructor(private readonly t: Transport) {}

  /**
   * One trace as a span tree (roots by start time, children nested).
   * @example
   * const trace = await svc.traces.get('6ec8e41cb506940d0781d3b891617847');
   * for (const root of trace.spans) console.log(root.name, root.duration_ms);
   */
  get(traceId: string): Promise<TraceDetail> {
    return this.t.request(getTrace, { params: { traceId } });
  }
}
