import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { SERVER_BIN } from './paths.js';

const run = promisify(execFile);

export interface Bootstrap {
  organization_id: string;
  project_id: string;
  user_id: string;
  api_key: string;
}

export interface ServerOptions {
  /** Extra environment for the server process. */
  env?: Record<string, string>;
  /** Reuse a data directory (a restart); else a new temporary one is made and bootstrapped. */
  dataDir?: string;
}

/** A real `svc-server` process on an ephemeral port with its own data directory. */
export interface TestServer {
  url: string;
  port: number;
  dataDir: string;
  process: ChildProcess;
  /** Every line the process wrote to stdout and stderr so far. */
  output: string[];
  /** SIGTERM and wait; resolves to the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL and wait: a crash. */
  kill(): Promise<void>;
}

/** Runs an `svc-server` host command and parses its `--json` output. */
export async function hostCommand<T = Record<string, unknown>>(dataDir: string, args: string[], env: Record<string, string> = {}): Promise<T> {
  const { stdout } = await run(process.execPath, [SERVER_BIN, ...args, '--data-dir', dataDir, '--json'], { env: { ...process.env, ...env } });
  return JSON.parse(stdout) as T;
}

/** A fresh temporary data directory, bootstrapped with `svc-server bootstrap`. */
export async function bootstrappedDataDir(): Promise<{ dataDir: string; admin: Bootstrap }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-test-'));
  const admin = await hostCommand<Bootstrap>(dataDir, ['bootstrap']);
  return { dataDir, admin };
}

/** Starts the server binary and waits for its `listening` log line. */
export async function startServer(options: ServerOptions & { dataDir: string }): Promise<TestServer> {
  const child = spawn(process.execPath, [SERVER_BIN, 'start', '--port', '0', '--data-dir', options.dataDir], {
    env: { ...process.env, SVC_STRICT_RESPONSES: 'true', SVC_LOG_LEVEL: 'info', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL'); // never leave a half-started server behind
      reject(new Error(`server did not start in time:\n${output.join('\n')}`));
    }, 30_000);
    const collect = (stream: NodeJS.ReadableStream, onLine?: (line: string) => void) => {
      let buffer = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        buffer += chunk;
        let nl: number;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          output.push(line);
          onLine?.(line);
        }
      });
    };
    collect(child.stdout!, (line) => {
      if (!line.includes('"listening"')) return;
      clearTimeout(timer);
      resolve((JSON.parse(line) as { port: number }).port);
    });
    collect(child.stderr!);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${output.join('\n')}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dataDir: options.dataDir,
    process: child,
    output,
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      return exited;
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** A bootstrapped instance and its running server; `cleanup()` stops it and removes the data. */
export async function startBootstrappedServer(options: ServerOptions = {}): Promise<{ server: TestServer; admin: Bootstrap; cleanup: () => Promise<void> }> {
  const { dataDir, admin } = await bootstrappedDataDir();
  const server = await startServer({ ...options, dataDir });
  return {
    server,
    admin,
    async cleanup() {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
