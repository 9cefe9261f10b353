/** What the span writer reports after each commit, once per project that received spans. */
export interface SpansStoredEvent {
  organizationId: string;
  projectId: string;
  /** When the spans were committed (ISO 8601). */
  receivedAt: string;
  /** Spans of this project in the commit (re-sent duplicates included). */
  spanCount: number;
}

/**
 * Told after spans are durably stored, e.g. to set a monitoring setup's
 * `last_received_at`. Called on the writer's path: keep it quick and never throw.
 */
export interface SpanIngestListener {
  onSpansStored(event: SpansStoredEvent): void;
}
