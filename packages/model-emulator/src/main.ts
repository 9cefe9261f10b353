import { parseArgs } from 'node:util';
import { startModelEmulator } from './server.js';

const USAGE = `svc-model-emulator [--port 3400] [--host 127.0.0.1] [--api-key KEY] [--model NAME]

A deterministic OpenAI-compatible chat-completions server for svc runs.
Point the server at it: SVC_LLM_BASE_URL=<printed url> SVC_LLM_MODEL=svc-model-emulator`;

/** The `svc-model-emulator` command: serve until SIGTERM or SIGINT. */
export async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: process.env.PORT ?? '3400' },
      host: { type: 'string', default: '127.0.0.1' },
      'api-key': { type: 'string' },
      model: { type: 'string', default: 'svc-model-emulator' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE + '\n');
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`svc-model-emulator: --port must be 0..65535\n${USAGE}\n`);
    process.exit(2);
  }
  const emulator = await startModelEmulator({ port, host: values.host, apiKey: values['api-key'] ?? process.env.SVC_LLM_API_KEY, model: values.model });
  process.stdout.write(JSON.stringify({ msg: 'listening', url: emulator.url, model: values.model }) + '\n');
  const stop = () => void emulator.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
