import { type ChildProcess, spawn } from 'node:child_process';

/** A helper HTTP process (an emulator, the example agent) on an ephemeral port. */
export interface HelperProcess {
  url: string;
  process: ChildProcess;
  json<T = any>(method: string, path: string, body?: unknown): Promise<T>;
  stop(): Promise<void>;
}

/** Starts a binary with `--port 0` (and `env` over this process's environment) and waits for its `{"msg":"listening","url"}` line. */
export async function startHelper(bin: string, args: string[] = [], env: Record<string, string> = {}): Promise<HelperProcess> {
  const child = spawn(process.execPath, [bin, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${bin} did not start:\n${out}`)), 30_000);
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.includes('"listening"'));
      if (line) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { url: string }).url);
      }
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    void exited.then(() => reject(new Error(`${bin} exited:\n${out}`)));
  });
  const origin = new URL(url).origin;
  return {
    url,
    process: child,
    async json(method, p, body) {
      const res = await fetch(origin + p, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${text}`);
      return text ? JSON.parse(text) : undefined;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
