import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as wait } from 'node:timers/promises';
import { createLogger } from '../logging/logger.js';
import { ImportScheduler } from './scheduler.js';

describe('ImportScheduler', () => {
  it('polls every setup with bounded concurrency, honours notBefore, and cancels runs', async () => {
    let running = 0;
    let peak = 0;
    const runs = new Map<string, number>();
    const cancelled: string[] = [];
    const setups = Array.from({ length: 10 }, (_, i) => ({ id: `mon_${i}`, notBefore: null as string | null }));
    setups.push({ id: 'mon_limited', notBefore: new Date(Date.now() + 60_000).toISOString() });
    const scheduler = new ImportScheduler({
      setups: async () => setups,
      pollMs: 20,
      concurrency: 3,
      log: createLogger('silent'),
      run: async (id, signal) => {
        running++;
        peak = Math.max(peak, running);
        runs.set(id, (runs.get(id) ?? 0) + 1);
        try {
          await wait(id === 'mon_0' ? 10_000 : 15, undefined, { signal });
        } catch {
          cancelled.push(id);
        } finally {
          running--;
        }
        return { more: false };
      },
    });
    scheduler.start();
    const deadline = Date.now() + 20_000;
    while (setups.slice(1, 10).some((s) => (runs.get(s.id) ?? 0) < 2) && Date.now() < deadline) await wait(10);
    scheduler.cancel('mon_0');
    await scheduler.stop();
    assert.ok(peak <= 3, `at most 3 at once (peak ${peak})`);
    for (const s of setups.slice(1, 10)) assert.ok((runs.get(s.id) ?? 0) >= 2, `${s.id} polled repeatedly`);
    assert.equal(runs.get('mon_limited'), undefined, 'not called before its Retry-After');
    assert.ok(cancelled.includes('mon_0'), 'a cancelled run is aborted');
  });
});
