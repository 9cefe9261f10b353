import { parseArgs } from 'node:util';
import { startAgent } from './server.js';

/** The `svc-example-agent` command: serve until SIGTERM or SIGINT. */
export async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: process.env.PORT ?? '3300' },
      host: { type: 'string', default: '127.0.0.1' },
      token: { type: 'string' },
    },
  });
  const agent = await startAgent({ port: Number(values.port), host: values.host, token: values.token ?? process.env.AGENT_TOKEN });
  process.stdout.write(JSON.stringify({ msg: 'listening', url: agent.url }) + '\n');
  const stop = () => void agent.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
