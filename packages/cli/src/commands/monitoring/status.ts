import type { MonitoringSetup } from '@svc/contract';
import { BaseCommand } from '../../base-command.js';
import { renderTable } from '../../lib/table.js';

export default class MonitoringStatus extends BaseCommand<typeof MonitoringStatus> {
  static override description = 'Show the project\'s monitoring setups: health, per-agent import state and progress, open import failures';
  static override examples = ['<%= config.bin %> monitoring status --project default', '<%= config.bin %> monitoring status --json'];

  async run(): Promise<{ setups: MonitoringSetup[] }> {
    const setups = await this.client.monitoring.list({ project: this.project });
    if (setups.length === 0) this.out('No monitoring is set up. Start with: svc monitoring setup platform-a');
    for (const s of setups) {
      this.out(`${s.platform} (${s.strategy})`);
      this.out(`  health: ${s.health.state}: ${s.health.message}${s.health.checked_at ? ` (checked ${s.health.checked_at})` : ''}`);
      this.out(`  last received: ${s.last_received_at ?? 'nothing yet'}${s.api_key_hint ? `   key: ${s.api_key_hint}` : ''}`);
      if (s.platform !== 'platform_a') continue;
      const agents = renderTable(
        ['agent', 'name', 'state', 'scanned', 'last success', 'last conversation', 'failures'],
        s.agents.map((a) => [a.id, a.name, a.import_state, `${a.scan.scanned}/${a.scan.total}`, a.last_success_at, a.last_conversation_at, a.failures.length]),
      );
      this.out(agents.replace(/^/gm, '  '));
      const failures = s.agents.flatMap((a) => a.failures.map((f) => [f.id, a.id, f.conversation_id, f.attempts, f.last_failed_at, f.reason]));
      if (failures.length) {
        this.out('  open import failures (replay with: svc monitoring replay FAILURE_ID):');
        this.out(renderTable(['failure', 'agent', 'conversation', 'attempts', 'last failed', 'reason'], failures).replace(/^/gm, '  '));
      }
    }
    return { setups };
  }
}
