import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AnalyticsStore } from './connection.js';

describe('AnalyticsStore.ping', () => {
  let dir: string;
  let store: AnalyticsStore;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'svc-duckdb-'));
    store = await AnalyticsStore.open(dir);
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers while the shared connection is busy (found by the load suite: /health waited behind every queued read)', async () => {
    let release!: () => void;
    const busy = store.exclusive(() => new Promise<void>((resolve) => (release = resolve)));
    // Only a safety net for the broken behaviour: without it a probe queued behind `busy` would wait forever.
    const safety = setTimeout(() => release(), 5_000);
    const first = await Promise.race([store.ping().then((ok) => `ping ${ok}`), busy.then(() => 'the busy work')]);
    release();
    clearTimeout(safety);
    await busy;
    assert.equal(first, 'ping true', 'the probe answered while the queue was held');
  });

  it('shares one probe among concurrent callers and still answers after it', async () => {
    const results = await Promise.all([store.ping(), store.ping(), store.ping()]);
    assert.deepEqual(results, [true, true, true]);
    assert.equal(await store.ping(), true);
  });
});
