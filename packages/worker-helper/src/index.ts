/** The worker helper arrives with the trace-ingest capability. */
export const WORKER_HELPER_VERSION = '0.1.0';
