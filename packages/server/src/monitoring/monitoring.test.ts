import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createLogger } from '../logging/logger.js';
import { relationalServices } from '../runtime.js';
import { bootstrapInstance } from '../organizations/bootstrap.js';
import { DuckdbConversationRepository } from '../conversations/repository.js';
import { Sealer } from '../shared/sealing.js';
import { AnalyticsStore } from '../storage/duckdb/connection.js';
import { RelationalStore } from '../storage/sqlite/connection.js';
import { SqliteFailureRepository } from './failure-repository.js';
import { SqliteImportRepository } from './import-repository.js';
import { SqliteMonitoringRepository } from './repository.js';
import { createMonitoring } from './wiring.js';

// Real SQLite and DuckDB files in a temporary directory; nothing is mocked.
describe('monitoring service and repositories (real stores)', () => {
  let dir: string;
  let relational: RelationalStore;
  let analytics: AnalyticsStore;
  let projectId: string;
  let organizationId: string;
  let wiring: ReturnType<typeof createMonitoring>;
  const log = createLogger('silent');

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'svc-monitoring-'));
    relational = RelationalStore.open(dir);
    analytics = await AnalyticsStore.open(dir);
    const boot = (await bootstrapInstance(relational, relationalServices(relational, log).keys, 'a@example.com'))!;
    projectId = boot.project_id;
    organizationId = boot.organization_id;
    wiring = createMonitoring({
      relational,
      conversations: new DuckdbConversationRepository(analytics),
      projects: relationalServices(relational, log).projects,
      sealer: Sealer.load({}, dir),
      env: {},
      log,
    });
  });
  after(async () => {
    await analytics.close();
    relational.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const project = () => ({ id: projectId, organizationId, name: 'default', createdAt: '' });
  const saveA = (agents: Array<{ id: string; name: string }>) =>
    new SqliteMonitoringRepository(relational).savePlatformA({
      organizationId,
      projectId,
      sealedApiKey: 'sealed',
      apiKeyHint: '...abcd',
      agents,
      health: { state: 'healthy', message: 'ok', at: new Date().toISOString() },
      now: new Date().toISOString(),
    });

  it('notePlatformBSpansReceived is coalesced: visible at once, written on flush, never moved back', async () => {
    const service = wiring.service;
    await service.enablePlatformB(project());
    assert.equal((await service.list(project()))[0]!.last_received_at, null);
    service.notePlatformBSpansReceived(projectId, '2026-01-01T00:00:02.000Z');
    service.notePlatformBSpansReceived(projectId, new Date('2026-01-01T00:00:01.000Z'));
    assert.equal((await service.list(project()))[0]!.last_received_at, '2026-01-01T00:00:02.000Z', 'read overlays the pending note');
    const repo = new SqliteMonitoringRepository(relational);
    assert.equal(await repo.spanReceipt(projectId), null, 'nothing written per note');
    const receipts = wiring.tasks.find((t) => t.name === 'platform_b span receipts')!;
    await receipts.stop();
    assert.equal(await repo.spanReceipt(projectId), '2026-01-01T00:00:02.000Z', 'written by the flush');
    await repo.recordSpanReceipts([{ projectId, at: '2025-12-31T00:00:00.000Z' }]);
    assert.equal(await repo.spanReceipt(projectId), '2026-01-01T00:00:02.000Z', 'an older time never replaces a newer one');
    await repo.recordSpanReceipts([{ projectId: 'prj_gone', at: '2026-01-01T00:00:00.000Z' }]);
  });

  it('statusForPlatformAgents answers every id: selected ones are configured and pulled', async () => {
    await saveA([{ id: 'pa_1', name: 'One' }, { id: 'pa_2', name: 'Two' }]);
    const status = await wiring.service.statusForPlatformAgents(projectId, ['pa_1', 'pa_3']);
    assert.deepEqual(status.get('pa_1'), { monitoringConfigured: true, pullProductionCalls: true, lastReceivedAt: null, monitoringKeyPresent: true, monitoringApiKeyHint: '...abcd' });
    assert.deepEqual(status.get('pa_3'), { monitoringConfigured: false, pullProductionCalls: false, lastReceivedAt: null, monitoringKeyPresent: false, monitoringApiKeyHint: null });
    const imports = new SqliteImportRepository(relational);
    const setupId = (await new SqliteMonitoringRepository(relational).findView(projectId, 'platform_a'))!.setup.id;
    await imports.noteHealth(setupId, { state: 'invalid_credential', message: 'refused', at: new Date().toISOString() });
    assert.equal((await wiring.service.statusForPlatformAgents(projectId, ['pa_1'])).get('pa_1')!.pullProductionCalls, false);
    assert.equal((await wiring.service.statusForPlatformAgents('prj_other', ['pa_1'])).get('pa_1')!.monitoringConfigured, false, 'per project');
  });

  it('records listed pages idempotently, promotes running calls, and advances the watermark on the last page', async () => {
    const view = await saveA([{ id: 'pa_1', name: 'One' }]);
    const imports = new SqliteImportRepository(relational);
    const setupId = view.setup.id;
    await imports.beginPass(setupId, 'pa_1', 1000);
    const page = [
      { conversationId: 'c1', startUnix: 3000, status: 'done' },
      { conversationId: 'c2', startUnix: 2500, status: 'in_progress' },
      { conversationId: 'c3', startUnix: 2000, status: 'failed' },
    ];
    await imports.recordPage(setupId, 'pa_1', page, 'cursor-2', new Date().toISOString());
    await imports.recordPage(setupId, 'pa_1', page, 'cursor-2', new Date().toISOString());
    let agent = (await new SqliteMonitoringRepository(relational).agents(setupId))[0]!;
    assert.deepEqual([agent.total, agent.scanned, agent.passCursor, agent.watermarkUnix], [3, 1, 'cursor-2', null], 'a repeated page counts once');
    await imports.recordPage(setupId, 'pa_1', [{ conversationId: 'c2', startUnix: 2500, status: 'done' }], null, new Date().toISOString());
    agent = (await new SqliteMonitoringRepository(relational).agents(setupId))[0]!;
    assert.deepEqual([agent.total, agent.watermarkUnix, agent.passCursor, agent.passSinceUnix], [3, 3000, null, null]);
    assert.deepEqual((await imports.work(setupId, 'pa_1', 'queued', 10)).map((w) => w.conversationId), ['c1', 'c2'], 'the finished call is queued, newest first');
  });

  it('leases a failure to one claimant at a time, and lets an expired lease go', async () => {
    const view = await saveA([{ id: 'pa_1', name: 'One' }]);
    const imports = new SqliteImportRepository(relational);
    const failures = new SqliteFailureRepository(relational);
    const t0 = new Date('2026-03-01T00:00:00.000Z');
    await imports.settle(
      { organizationId, projectId, setupId: view.setup.id, agentId: 'pa_1' },
      [{ kind: 'failed', conversationId: 'c1', reason: 'incomplete: test', attempts: 3 }],
      null,
      t0.toISOString(),
      t0.toISOString(),
    );
    const failure = (await new SqliteMonitoringRepository(relational).findView(projectId, 'platform_a'))!.agents[0]!.failures[0]!;
    assert.match(failure.id, /^imf_/);
    const at = (ms: number) => new Date(t0.getTime() + ms).toISOString();
    assert.equal(await failures.claim(failure.id, 'crashed-replay', at(0), 60_000), true);
    assert.equal(await failures.claim(failure.id, 'second', at(1_000), 60_000), false, 'held');
    assert.equal(await failures.claim(failure.id, 'second', at(60_001), 60_000), true, 'the crashed owner\'s lease expired');
    await failures.recordAttempt(failure.id, 'crashed-replay', 'late', at(60_002), null);
    assert.equal((await failures.find(projectId, failure.id))!.attempts, 3, 'a former owner cannot record');
    await failures.resolve(failure, 'written', 2000, at(60_003));
    assert.equal((await failures.find(projectId, failure.id))!.status, 'resolved');
    assert.equal(await failures.claim(failure.id, 'third', at(200_000), 60_000), false, 'a resolved failure is never claimed');
    assert.equal(await failures.find('prj_other', failure.id), null, 'scoped to the project');
  });
});
