import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createLogger } from '../logging/logger.js';
import { decodeJsonExport } from '../otlp/decode-json.js';
import { toColumns } from '../otlp/records.js';
import { AnalyticsStore } from '../storage/duckdb/connection.js';
import { type SpanBatch, SpanWriter } from './writer.js';

/** Spans per batch: enough that each group may start a commit beside the running one. */
const SPANS = 5000;

/** A batch of `count` spans of one new trace in project `prj_w`. */
function batch(count: number, traceByte: number): SpanBatch {
  const spans = Array.from({ length: count }, (_, i) => ({
    traceId: traceByte.toString(16).padStart(2, '0').repeat(16),
    spanId: (i + 1).toString(16).padStart(16, '0'),
    name: `s${i}`,
    startTimeUnixNano: '10',
    endTimeUnixNano: '20',
  }));
  const columns = toColumns(decodeJsonExport(Buffer.from(JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] }))));
  return { organizationId: 'org_w', projectId: 'prj_w', spans: columns };
}

describe('span writer: re-sent spans across group commits', () => {
  let dir: string;
  let store: AnalyticsStore;
  let writer: SpanWriter;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'svc-writer-'));
    store = await AnalyticsStore.open(dir);
    // One batch per group, so the same spans go out in one commit after another, re-sends of each other.
    writer = await SpanWriter.open(await store.connect(), { maxQueuedSpans: 1_000_000, maxCommitSpans: SPANS, log: createLogger('silent') });
  });
  after(async () => {
    await writer.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('acknowledges every re-send of the same spans and stores them once, however the groups fall', async () => {
    for (let round = 1; round <= 20; round++) {
      const same = batch(SPANS, round);
      const results = await Promise.allSettled(Array.from({ length: 12 }, () => writer.write(same)));
      assert.deepEqual(
        results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason)),
        [],
        `round ${round}: no re-send may be refused`,
      );
    }
    const count = await store.exclusive(async (c) => Number((await (await c.run("SELECT count(*) FROM spans WHERE project_id = 'prj_w'")).getRows())[0]![0]));
    assert.equal(count, 20 * SPANS, 'twenty traces, each span stored once');
  });
});
