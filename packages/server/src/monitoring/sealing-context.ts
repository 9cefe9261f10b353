/**
 * The sealing context of a project's platform_a key. It names the row's
 * natural key (project and platform), so a sealed key copied to another
 * project's row does not open there, while re-saving keeps it openable.
 */
export function platformKeyContext(projectId: string): string {
  return `monitoring:${projectId}:platform_a:api_key`;
}
