import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { callerTurn } from './caller.js';
import { judge, judgeInput } from './judge.js';
import { type CompletionRequest, ROLE_BY_SCHEMA, type RecordedRequest } from './types.js';

export interface EmulatorOptions {
  port?: number;
  host?: string;
  /** When set, completions need `Authorization: Bearer <apiKey>`. */
  apiKey?: string | undefined;
  /** The model name reported when a request names none. */
  model?: string;
}

/** A running model emulator. */
export interface ModelEmulator {
  /** Base URL for `SVC_LLM_BASE_URL`, ending in `/v1`. */
  url: string;
  server: Server;
  close(): Promise<void>;
}

interface Fault {
  status: number;
  remaining: number;
  retryAfter?: number;
}

const MAX_RECORDED = 10_000;
const MAX_BODY = 8 * 1024 * 1024;

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

const openAiError = (message: string, type: string) => ({ error: { message, type, param: null, code: null } });

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new Error('body too large');
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : {};
}

/**
 * Starts the emulator: `POST /v1/chat/completions` answers the caller role
 * (response_format schema `caller_turn`) and the judge role
 * (`behavior_verdicts`) by fixed rules, anything else with a short text.
 * `/_admin/requests` lists what it was asked; `/_admin/faults` makes the next
 * completions fail with a status.
 */
export async function startModelEmulator(options: EmulatorOptions = {}): Promise<ModelEmulator> {
  const recorded: RecordedRequest[] = [];
  const faults: Fault[] = [];
  let seq = 0;
  let completionSeq = 0;

  const complete = async (req: IncomingMessage, res: ServerResponse) => {
    if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      return send(res, 401, openAiError('Incorrect API key provided.', 'invalid_request_error'));
    }
    const body = (await readJson(req)) as CompletionRequest;
    const schemaName = body.response_format?.json_schema?.name ?? null;
    const role = (schemaName && ROLE_BY_SCHEMA[schemaName]) || 'text';
    const record = (status: number) => {
      recorded.push({
        seq: ++seq,
        at: new Date().toISOString(),
        role,
        model: body.model ?? null,
        temperature: body.temperature ?? null,
        response_format: body.response_format?.type ?? null,
        schema_name: schemaName,
        status,
      });
      if (recorded.length > MAX_RECORDED) recorded.shift();
    };
    const fault = faults[0];
    if (fault) {
      if (--fault.remaining <= 0) faults.shift();
      record(fault.status);
      return send(res, fault.status, openAiError('Injected fault.', 'server_error'), fault.retryAfter ? { 'retry-after': String(fault.retryAfter) } : {});
    }
    if (!Array.isArray(body.messages) || body.messages.length === 0) {
      record(400);
      return send(res, 400, openAiError('messages is required', 'invalid_request_error'));
    }
    let content: string;
    try {
      if (role === 'caller') content = JSON.stringify(callerTurn(body.messages));
      else if (role === 'judge') content = JSON.stringify({ verdicts: judge(judgeInput(body.messages)) });
      else content = 'OK';
    } catch (err) {
      record(400);
      return send(res, 400, openAiError((err as Error).message, 'invalid_request_error'));
    }
    record(200);
    send(res, 200, {
      id: `chatcmpl-emu-${++completionSeq}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model ?? options.model ?? 'svc-model-emulator',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    });
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://emulator');
    const route = `${req.method} ${url.pathname}`;
    const handle = async () => {
      switch (route) {
        case 'POST /v1/chat/completions':
          return complete(req, res);
        case 'GET /v1/models':
          return send(res, 200, { object: 'list', data: [{ id: options.model ?? 'svc-model-emulator', object: 'model', owned_by: 'svc' }] });
        case 'GET /health':
          return send(res, 200, { status: 'ok' });
        case 'GET /_admin/requests': {
          const after = Number(url.searchParams.get('after_seq') ?? 0);
          return send(res, 200, { requests: recorded.filter((r) => r.seq > after), last_seq: seq });
        }
        case 'POST /_admin/faults': {
          const f = (await readJson(req)) as { status?: number; count?: number; retry_after?: number };
          faults.push({ status: f.status ?? 503, remaining: f.count ?? 1, ...(f.retry_after ? { retryAfter: f.retry_after } : {}) });
          return send(res, 201, { queued: faults.length });
        }
        case 'DELETE /_admin/faults':
          faults.length = 0;
          return send(res, 200, { queued: 0 });
        default:
          return send(res, 404, openAiError(`No route ${route}`, 'invalid_request_error'));
      }
    };
    handle().catch((err: unknown) => send(res, 400, openAiError((err as Error).message, 'invalid_request_error')));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}/v1`,
    server,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
