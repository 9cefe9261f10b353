import { waitFor } from '../../helpers/emulator.js';
import { client } from '../../helpers/http.js';
import type { Ledger, RoundWrites } from './ledger.js';

/**
 * After a restart, asks the API for one round's acknowledged writes: keys are
 * listed and authenticate, versions are there with the content they were
 * minted with, traces hold exactly the spans the clients sent (none twice),
 * listed conversations are still listed. Resolves to the checks made and
 * the problems found.
 */
export async function checkAcknowledged(url: string, adminKey: string, ledger: Ledger, round: RoundWrites): Promise<{ checked: number; problems: string[] }> {
  const api = client(url, adminKey);
  const problems: string[] = [];
  let checked = 0;
  const listed = await api.get('/api/keys');
  const ids = new Set((listed.body.keys as Array<{ id: string }>).map((k) => k.id));
  const keyCheck = async (id: string) => {
    const own = await client(url, ledger.keys.get(id)).get('/api/keys');
    if (own.status !== 200) problems.push(`key ${id} does not authenticate: ${own.status}`);
  };
  const versionCheck = (id: string, v: { status?: number; body: any; text?: string } | undefined) => {
    const acked = ledger.versions.get(id)!;
    if (!v || v.status !== 200) problems.push(`test version ${id}: ${v?.status ?? 'not listed'}`);
    else if (v.body.version !== acked.version || v.body.scenario !== acked.scenario || v.body.test_id !== acked.testId) problems.push(`test version ${id} changed: ${JSON.stringify(v.body)}`);
  };
  /** A test's versions, newest first, page after page until every wanted one is seen. */
  const testVersions = async (testId: string, wanted: readonly string[]) => {
    const found = new Map<string, unknown>();
    let cursor: string | null = null;
    for (let page = 0; page < 100 && wanted.some((id) => !found.has(id)); page++) {
      const res: { status: number; body: any } = await api.get(`/api/tests/${testId}/versions?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      if (res.status !== 200) break;
      for (const v of res.body.items) found.set(v.id, v);
      cursor = res.body.next_cursor;
      if (!cursor) break;
    }
    for (const id of wanted) versionCheck(id, found.has(id) ? { status: 200, body: found.get(id) } : undefined);
  };
  const traceCheck = async (traceId: string) => {
    const want = ledger.spans.get(traceId)!.size;
    const t = await api.get(`/api/traces/${traceId}`);
    if (t.status !== 200) problems.push(`trace ${traceId}: ${t.status}`);
    else if (t.body.span_count !== want) problems.push(`trace ${traceId} holds ${t.body.span_count} spans, the clients sent ${want} distinct`);
  };
  // Every key must be listed; a few of them (first, last, one between) must also authenticate.
  for (const id of round.keys) if (!ids.has(id)) problems.push(`key ${id} is not listed`);
  const sampled = [...new Set([round.keys[0], round.keys.at(-1), round.keys[Math.floor(round.keys.length / 2)]])].filter((id): id is string => id !== undefined);
  const byTest = new Map<string, string[]>();
  for (const id of round.versions) byTest.set(ledger.versions.get(id)!.testId, [...(byTest.get(ledger.versions.get(id)!.testId) ?? []), id]);
  const newest = round.versions.at(-1);
  const checks = [
    ...sampled.map((id) => () => keyCheck(id)),
    ...[...byTest].map(([testId, ids]) => () => testVersions(testId, ids)),
    // One version also through its own endpoint.
    ...(newest ? [async () => versionCheck(newest, await api.get(`/api/test-versions/${newest}`))] : []),
    ...[...new Set(round.traces)].map((id) => () => traceCheck(id)),
  ];
  checked += round.keys.length + sampled.length + round.versions.length + new Set(round.traces).size;
  // A few at a time: the checks are independent reads.
  let next = 0;
  const worker = async () => {
    while (next < checks.length) await checks[next++]!();
  };
  await Promise.all(Array.from({ length: 6 }, worker));
  if (round.conversations.length) {
    // Newest first: the round's conversations are on the first page unless something went wrong.
    const stored = new Set(await platformAConversations(url, adminKey, (seen) => round.conversations.every((id) => seen.has(id))));
    for (const id of round.conversations) {
      checked++;
      if (!stored.has(id)) problems.push(`conversation ${id} was listed before the kill and is gone`);
    }
  }
  return { checked, problems };
}

/** Every platform_a conversation's external id, page after page (until `enough` says so, or the last page). */
export async function platformAConversations(url: string, key: string, enough: (seen: Set<string>) => boolean = () => false): Promise<string[]> {
  const api = client(url, key);
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 1000; page++) {
    const res = await api.get(`/api/conversations?project=default&source=platform_a&limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    if (res.status !== 200) throw new Error(`GET /api/conversations: ${res.status} ${res.text}`);
    ids.push(...res.body.items.map((c: { external_id: string }) => c.external_id));
    cursor = res.body.next_cursor;
    if (!cursor || enough(new Set(ids))) return ids;
  }
  throw new Error('the conversation list never ended');
}

/** Waits (bounded) until the importer has stored `expected` distinct platform_a conversations; returns every listed id. */
export function allPlatformAConversations(url: string, key: string, expected: number): Promise<string[]> {
  return waitFor(
    `${expected} imported platform_a conversations`,
    async () => {
      const ids = await platformAConversations(url, key);
      return new Set(ids).size >= expected && ids;
    },
    60_000,
    250,
  );
}
