import {
  type BodyInputOf,
  type MonitoringSetup,
  type PlatformAgentChoice,
  type ReplayFailureResponse,
  deleteMonitoringSetup,
  discoverPlatformAAgents,
  enablePlatformBMonitoring,
  listMonitoringSetups,
  replayImportFailure,
  savePlatformAMonitoring,
} from '@svc/contract';
import type { Transport } from '../core/transport.js';

/** Which project to act in: required unless the API key is scoped to one (id or name). */
export interface MonitoringProjectOption {
  project?: string | undefined;
}

/** The removable setups, as the path names them. */
export type MonitoringPlatformPath = 'platform_a' | 'platform_b-agents';

const query = (o: MonitoringProjectOption) => (o.project === undefined ? {} : { project: o.project });

/**
 * Production monitoring setups.
 * @example
 * const agents = await svc.monitoring.discoverPlatformA(process.env.PLATFORM_A_KEY!, { project: 'default' });
 * await svc.monitoring.savePlatformA({ api_key: process.env.PLATFORM_A_KEY!, agents }, { project: 'default' });
 */
export class MonitoringResource {
  constructor(private readonly t: Transport) {}

  /** The project's setups (platform_a first) with health, import progress and open failures. */
  list(options: MonitoringProjectOption = {}): Promise<MonitoringSetup[]> {
    return this.t.request(listMonitoringSetups, { query: query(options) });
  }

  /** The voice agents a platform_a key can see, sorted by name. The key is checked, not saved. */
  discoverPlatformA(apiKey: string, options: MonitoringProjectOption = {}): Promise<PlatformAgentChoice[]> {
    return this.t.request(discoverPlatformAAgents, { query: query(options), body: { api_key: apiKey }, idempotent: true });
  }

  /** Creates or replaces the platform_a setup; polling starts at once. */
  savePlatformA(body: BodyInputOf<typeof savePlatformAMonitoring>, options: MonitoringProjectOption = {}): Promise<MonitoringSetup> {
    return this.t.request(savePlatformAMonitoring, { query: query(options), body });
  }

  /** Creates the platform_b setup record (it configures no worker). */
  enablePlatformB(options: MonitoringProjectOption = {}): Promise<MonitoringSetup> {
    return this.t.request(enablePlatformBMonitoring, { query: query(options) });
  }

  /** Removes a setup; stored conversations are kept. */
  async remove(platform: MonitoringPlatformPath, options: MonitoringProjectOption = {}): Promise<void> {
    await this.t.request(deleteMonitoringSetup, { params: { platform }, query: query(options) });
  }

  /**
   * Re-reads a failed call and stores it once. Throws `ConflictError` with code
   * `replay_in_progress` or `conversation_incomplete`, `RateLimitError` on the platform's rate limit.
   */
  replayFailure(failureId: string, options: MonitoringProjectOption = {}): Promise<ReplayFailureResponse> {
    return this.t.request(replayImportFailure, { params: { failureId }, query: query(options) });
  }
}
