/**
 * Exit codes of `svc`, stable for scripts and CI:
 *
 * | code | meaning |
 * |---|---|
 * | 0 | success (for `svc run`: the run passed) |
 * | 1 | an error not listed below |
 * | 2 | wrong usage (flags, arguments) |
 * | 3 | not authenticated or not permitted (401, 403) |
 * | 4 | not found (404) |
 * | 5 | conflict (409) |
 * | 6 | invalid input (400, 413, 415, 422) |
 * | 7 | rate limited (429) |
 * | 8 | service or provider unavailable, or unreachable (503, network) |
 * | 10 | `svc run`: the run finished and did not pass |
 */
export const ExitCode = {
  ok: 0,
  error: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  conflict: 5,
  invalid: 6,
  rateLimited: 7,
  unavailable: 8,
  runFailed: 10,
} as const;

/** The exit code for an HTTP status (0 for a network failure). */
export function exitCodeForStatus(status: number): number {
  if (status === 0 || status === 503) return ExitCode.unavailable;
  if (status === 401 || status === 403) return ExitCode.auth;
  if (status === 404) return ExitCode.notFound;
  if (status === 409) return ExitCode.conflict;
  if (status === 429) return ExitCode.rateLimited;
  if ([400, 413, 415, 422].includes(status)) return ExitCode.invalid;
  return ExitCode.error;
}
