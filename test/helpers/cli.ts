import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CLI_BIN } from './paths.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A home for the CLI: its own config directory, so tests never touch the user's. */
export function cliHome(): string {
  return mkdtempSync(path.join(tmpdir(), 'svc-cli-'));
}

/** Runs the built `svc` binary with a private config directory. */
export function runCli(args: string[], env: Record<string, string> = {}, input?: string): Promise<CliResult> {
  const home = env.XDG_CONFIG_HOME ?? cliHome();
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [CLI_BIN, ...args],
      { env: { ...process.env, SVC_URL: '', SVC_API_KEY: '', SVC_PROJECT: '', XDG_CONFIG_HOME: home, HOME: home, NO_COLOR: '1', ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    if (input !== undefined) child.stdin!.end(input);
    else child.stdin!.end();
  });
}
