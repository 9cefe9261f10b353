import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startEmulator } from './server.js';
import type { SeedDocument } from './types.js';

const USAGE = `svc-platform-a-emulator — an HTTP emulator of the platform_a API

Usage: svc-platform-a-emulator [--port 3200] [--host 127.0.0.1] [--seed FILE] [--generate AGENT_ID:COUNT[:DAYS]]...

  --port      port to listen on (0 picks a free one; env PLATFORM_A_EMULATOR_PORT)
  --host      address to bind (default 127.0.0.1)
  --seed      JSON seed file: keys, agents, conversations, generate
  --generate  add COUNT generated conversations for an agent of the seed, spread over DAYS (default 30)

Prints one JSON line {"msg":"listening","url",...} when ready. Admin API: /_admin (see README).`;

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    seed: { type: 'string' },
    generate: { type: 'string', multiple: true },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  process.stdout.write(USAGE + '\n');
  process.exit(0);
}

const seed: SeedDocument = values.seed ? (JSON.parse(readFileSync(values.seed, 'utf8')) as SeedDocument) : {};
for (const spec of values.generate ?? []) {
  const [agentId, count, days] = spec.split(':');
  if (!agentId || !count || !/^\d+$/.test(count)) {
    process.stderr.write(`--generate takes AGENT_ID:COUNT[:DAYS], got "${spec}"\n`);
    process.exit(2);
  }
  (seed.generate ??= []).push({ agent_id: agentId, count: Number(count), ...(days ? { days: Number(days) } : {}) });
}
const port = Number(values.port ?? process.env.PLATFORM_A_EMULATOR_PORT ?? 3200);

try {
  const emulator = await startEmulator({ port, host: values.host ?? '127.0.0.1', seed });
  const s = emulator.state;
  process.stdout.write(
    JSON.stringify({ msg: 'listening', url: emulator.url, port: emulator.port, keys: s.keys.size, agents: s.agents.size, conversations: s.conversations.size }) + '\n',
  );
  const stop = () => void emulator.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} catch (err) {
  process.stderr.write(`svc-platform-a-emulator: ${(err as Error).message}\n`);
  process.exit(1);
}
