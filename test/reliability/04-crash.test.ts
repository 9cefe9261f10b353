import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { type EmulatorProcess, startEmulator } from '../helpers/emulator.js';
import { client } from '../helpers/http.js';
import { projectKey } from '../helpers/otlp.js';
import { type Bootstrap, type TestServer, bootstrappedDataDir, startServer } from '../helpers/server.js';
import { allPlatformAConversations, checkAcknowledged } from './crash/api-checks.js';
import { type EditedTest, Ledger } from './crash/ledger.js';
import { checkOffline, secondServerRefused, storeSizes } from './crash/offline.js';
import { random } from './crash/random.js';
import { acknowledgedEach, resendUnanswered, writeUntilStopped } from './crash/writers.js';
import { PROFILE, recordFigures } from './figures.js';

// 100 rounds in both profiles; a round is short: a start, under a second of writes, a kill, the checks.
const ROUNDS = PROFILE === 'full' ? 300 : 100;
/** Every this many rounds a second server is started on the data directory (each costs a process start). */
const SECOND_SERVER_EVERY = 20;
const PLATFORM_KEY = 'pa_crash_full_access_key_0001';
const AGENT = 'agent_crash';
/** New platform_a calls per round, so an import is under way at most kills. */
const NEW_CALLS_PER_ROUND = 4;
/** The longest a round waits for an import or for its re-sent span batches before the kill. */
const GRACE_MS = 1_000;
/** The latest a round kills the server after its writes began, whatever was acknowledged. */
const KILL_BOUND_MS = 10_000;
const ENV = {
  // Checkpoint the analytics WAL every few rounds (the default 256MB never comes here), so kills also land in checkpoints.
  SVC_ANALYTICS_CHECKPOINT_THRESHOLD: '1MB',
  // Poll platform_a every 100 ms, so imports are in flight when the kill comes.
  SVC_PLATFORM_A_POLL_MS: '100',
  SVC_PLATFORM_A_TIMEOUT_MS: '5000',
  // The writers would hit the default 600/min in seconds; a 429 is not what this suite is about.
  SVC_RATE_LIMIT_PER_MINUTE: '1000000',
};

describe('suite 4: crash consistency (SIGKILL during concurrent writes, restart, check)', () => {
  let emulator: EmulatorProcess;
  let dataDir: string;
  let admin: Bootstrap;
  let server: TestServer;
  const rand = random('crash');
  const ledger = new Ledger();
  const problems: string[] = [];
  const figures = { offlineChecked: 0, apiChecked: 0, lost: 0, broken: 0, integrityOk: 0, duckdbOpened: 0, secondRefused: 0, requests: 0, resent: 0 };
  const roundsWith = { keys: 0, versions: 0, traces: 0, conversations: 0 };
  /** Where the rounds' time goes (printed, never asserted). */
  const phases: Record<string, number> = {};
  let mark = Date.now();
  const lap = (phase: string) => {
    phases[phase] = (phases[phase] ?? 0) + Date.now() - mark;
    mark = Date.now();
  };

  before(async () => {
    emulator = await startEmulator({
      keys: [{ key: PLATFORM_KEY, permissions: ['agents_read', 'history_read', 'monitor'], label: 'crash' }],
      agents: [{ agent_id: AGENT, name: 'Crash Line', modality: 'voice' }],
      generate: [{ agent_id: AGENT, count: 10, days: 2, seed: 4 }],
    });
    ({ dataDir, admin } = await bootstrappedDataDir());
  });
  after(async () => {
    await server?.kill();
    await emulator?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async () => (server = await startServer({ dataDir, env: { ...ENV, SVC_PLATFORM_A_URL: emulator.url } }));
  const api = () => client(server.url, admin.api_key);

  /** After a restart: the API still has the previous round's acknowledged writes; editors continue from the current versions. */
  async function afterRestart(label: string, tests: EditedTest[]): Promise<void> {
    const previous = ledger.nextRound();
    // An edit cut by the kill may have committed: each editor goes on from its test's current version.
    const [found] = await Promise.all([
      checkAcknowledged(server.url, admin.api_key, ledger, previous),
      ...tests.map(async (test) => (test.expectedVersionId = (await api().get(`/api/tests/${test.id}`)).body.version_id)),
    ]);
    figures.apiChecked += found.checked;
    problems.push(...found.problems.map((p) => `${label} (after restart): ${p}`));
  }

  /** Writes until every kind was acknowledged, kills the server at a random moment after, and waits for the writers. */
  async function writeAndKill(round: number, ingestKey: string, tests: EditedTest[]): Promise<void> {
    const calls = Array.from({ length: NEW_CALLS_PER_ROUND }, (_, i) => ({ conversation_id: `conv_r${round}_${i}`, agent_id: AGENT, status: 'done', started_ago_secs: 1 }));
    await emulator.admin('POST', '/_admin/conversations', { conversations: calls });
    figures.resent += ledger.unanswered.length;
    let stopped = false;
    const progress = { retrying: 0 };
    const writing = writeUntilStopped({ url: server.url, adminKey: admin.api_key, ingestKey, tests, round }, ledger, () => stopped, progress);
    await acknowledgedEach(ledger, progress, GRACE_MS, KILL_BOUND_MS);
    await new Promise((r) => setTimeout(r, Math.floor(rand() * 150)));
    await server.kill();
    stopped = true;
    for (const kind of ['keys', 'versions', 'traces', 'conversations'] as const) if (ledger.round[kind].length) roundsWith[kind]++;
    figures.requests += await writing;
  }

  /** With the server stopped: both stores opened read-only hold every acknowledged write, once. */
  async function checkStopped(round: number): Promise<void> {
    const offline = await checkOffline(dataDir, ledger);
    figures.offlineChecked += ledger.size;
    figures.lost += offline.lost.length;
    figures.broken += offline.broken.length;
    if (offline.integrity === 'ok') figures.integrityOk++;
    else problems.push(`round ${round}: integrity_check: ${offline.integrity}`);
    if (offline.duckdb === 'opened') figures.duckdbOpened++;
    else problems.push(`round ${round}: the DuckDB file did not open: ${offline.duckdb}`);
    problems.push(...[...offline.lost, ...offline.broken].slice(0, 20).map((p) => `round ${round}: ${p}`));
    if (round % 10 === 0) process.stdout.write(`# round ${round}: ${JSON.stringify({ ...storeSizes(dataDir), spans: offline.spanRows, conversations: offline.conversationRows })}\n`);
  }

  it(`loses no acknowledged write over ${ROUNDS} kills, stores nothing twice, keeps both stores sound, refuses a second server`, async () => {
    await start();
    const ingestKey = await projectKey(server, admin, 'crash-ingest');
    const saved = await api().put('/api/monitoring/platform_a?project=default', { api_key: PLATFORM_KEY, agents: [{ id: AGENT, name: 'Crash Line' }] });
    assert.equal(saved.status, 200, saved.text);
    const tests: EditedTest[] = [];
    for (const name of ['crash edits A', 'crash edits B']) {
      const created = await api().post('/api/tests', { project: 'default', name, scenario: 'Caller: hello.', expected_behaviors: ['greets the caller'] });
      assert.equal(created.status, 201, created.text);
      ledger.ackVersion(created.body.version_id, { testId: created.body.id, version: 1, scenario: 'Caller: hello.' });
      tests.push({ id: created.body.id, expectedVersionId: created.body.version_id });
    }
    mark = Date.now();
    let round = 1;
    for (; round <= ROUNDS && problems.length === 0; round++) {
      if (round > 1) {
        await afterRestart(`round ${round - 1}`, tests);
        lap('api checks');
      }
      if (round % SECOND_SERVER_EVERY === 1) {
        const wrong = await secondServerRefused(server);
        if (wrong) problems.push(`round ${round}: ${wrong}`);
        else figures.secondRefused++;
        lap('second server');
      }
      await writeAndKill(round, ingestKey, tests);
      lap('writes and kill');
      await checkStopped(round);
      lap('offline checks');
      await start();
      lap('restart');
    }
    const rounds = round - 1;

    // The last round's writes; then, with nothing killing it, the importer catches up: every platform call stored once.
    figures.resent += await resendUnanswered(server.url, ingestKey, ledger);
    await afterRestart('last round', tests);
    const platform = await emulator.conversationIds({ agent_id: AGENT });
    const imported = await allPlatformAConversations(server.url, admin.api_key, platform.length);
    const duplicates = imported.length - new Set(imported).size;
    if (duplicates) problems.push(`${duplicates} platform_a conversations stored twice`);

    process.stdout.write(`# crash round phases (ms, all rounds): ${JSON.stringify(phases)}\n`);
    recordFigures('04 crash consistency', {
      checks: figures.offlineChecked + figures.apiChecked + figures.integrityOk + figures.duckdbOpened + figures.secondRefused,
      failures: problems.length,
      rounds,
      ack_writes_checked: figures.offlineChecked + figures.apiChecked,
      lost_writes: figures.lost,
      duplicates: figures.broken + duplicates,
      integrity_ok: `${figures.integrityOk}/${rounds}`,
      duckdb_opened: `${figures.duckdbOpened}/${rounds}`,
      second_server_refused: figures.secondRefused,
      requests: figures.requests,
      cut_by_kill: ledger.cut,
      span_batches_resent: figures.resent,
      rounds_acking: `keys ${roundsWith.keys}, versions ${roundsWith.versions}, spans ${roundsWith.traces}, imports ${roundsWith.conversations}`,
    });
    assert.deepEqual(problems, []);
    assert.deepEqual(ledger.unexpected, [], 'no write was refused or failed while the server ran');
    assert.equal(rounds, ROUNDS);
    assert.deepEqual([...new Set(imported)].sort(), [...platform].sort(), 'every platform_a call is imported, once');
    // A round in which nothing of a kind was acknowledged before the kill tests nothing of that kind.
    for (const [kind, n] of Object.entries(roundsWith)) assert.ok(n >= ROUNDS * 0.8, `only ${n} of ${ROUNDS} rounds had an acknowledged write of ${kind} before the kill`);
  });
});
