import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The built `svc-server` binary. */
export const SERVER_BIN = path.join(ROOT, 'packages/server/bin/svc-server.js');
/** The built `svc` CLI binary. */
export const CLI_BIN = path.join(ROOT, 'packages/cli/bin/run.js');
