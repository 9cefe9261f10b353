import { decodeStatus } from '../helpers/otlp.js';
import type { ContractValidator, RecordedResponse } from './contract-validator.js';
import type { SampleRequest } from './request-samples.js';

/** How a request presents itself: a raw Authorization header and/or a Cookie header. */
export interface Credential {
  authorization?: string;
  cookie?: string;
}

/** A response as the matrix reads it: status, the error code (JSON or google.rpc.Status) and the whole text. */
export interface MatrixResponse {
  status: number;
  code: string | undefined;
  contentType: string;
  text: string;
  body: any;
  /** The response as the contract validator reads it. */
  recorded: RecordedResponse;
}

/** Sends one sample request with a credential. */
export async function send(baseUrl: string, req: SampleRequest, credential: Credential): Promise<MatrixResponse> {
  const headers: Record<string, string> = {};
  if (credential.authorization) headers.authorization = credential.authorization;
  if (credential.cookie) headers.cookie = credential.cookie;
  let body: string | undefined;
  if (req.raw !== undefined) {
    body = req.raw;
    headers['content-type'] = req.contentType ?? 'application/json';
  } else if (req.body !== undefined) {
    body = JSON.stringify(req.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(baseUrl + req.path, { method: req.method, headers, body });
  const bytes = Buffer.from(await res.arrayBuffer());
  const contentType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
  const text = bytes.toString('utf8');
  let parsed: any = text;
  let code: string | undefined;
  if (contentType === 'application/json' && text) {
    parsed = JSON.parse(text);
    code = typeof parsed?.error === 'string' ? parsed.error : undefined;
  } else if (contentType === 'application/x-protobuf' && res.status >= 400) {
    parsed = decodeStatus(bytes);
    code = parsed.message.split(':')[0];
  }
  const recorded: RecordedResponse = {
    operationId: req.operationId,
    method: req.method,
    path: req.path.split('?')[0]!,
    status: res.status,
    contentType: bytes.length ? contentType : null,
    headers: Object.fromEntries(res.headers),
    body: !bytes.length ? null : contentType === 'application/json' ? JSON.parse(text) : bytes.toString('base64'),
    ...(bytes.length && contentType !== 'application/json' ? { bodyEncoding: 'base64' as const } : {}),
  };
  return { status: res.status, code, contentType, text, body: parsed, recorded };
}

/**
 * Collects the matrix's findings instead of stopping at the first, so one run
 * reports every operation × case that misbehaves.
 */
export class Findings {
  checks = 0;
  readonly failures: string[] = [];
  readonly requestsByCase = new Map<string, number>();
  readonly operationsByCase = new Map<string, Set<string>>();

  constructor(
    private readonly markers: string[],
    private readonly contract: ContractValidator,
  ) {}

  /** Counts one request of `matrixCase`, checks it leaks nothing of the other project and that the contract documents the answer. */
  saw(matrixCase: string, req: SampleRequest, res: MatrixResponse): void {
    const broken = this.contract.check(res.recorded);
    this.expect(broken.length === 0, `${matrixCase}: ${req.method} ${req.path} answered ${res.status} against the contract: ${broken.join('; ')}`);
    this.requestsByCase.set(matrixCase, (this.requestsByCase.get(matrixCase) ?? 0) + 1);
    const ops = this.operationsByCase.get(matrixCase) ?? new Set<string>();
    ops.add(req.operationId);
    this.operationsByCase.set(matrixCase, ops);
    // A marker the request itself carries (an id or name it names) may be echoed; any other is a leak.
    const sent = req.path + JSON.stringify(req.body ?? '') + (req.raw ?? '');
    const leaked = this.markers.filter((m) => !sent.includes(m) && res.text.includes(m));
    this.expect(leaked.length === 0, `${matrixCase}: ${req.method} ${req.path} leaks ${leaked.join(', ')}: ${res.text.slice(0, 300)}`);
  }

  /** Records one check; a false `ok` is a finding. */
  expect(ok: boolean, message: string): void {
    this.checks++;
    if (!ok) this.failures.push(message);
  }

  /** Checks a refusal: exactly this status and code, which also rules out any 2xx. */
  refusal(matrixCase: string, req: SampleRequest, res: MatrixResponse, status: number, code: string): void {
    this.saw(matrixCase, req, res);
    this.expect(res.status === status && res.code === code, `${matrixCase}: ${req.method} ${req.path} answered ${res.status} ${res.code ?? ''} (expected ${status} ${code}): ${res.text.slice(0, 300)}`);
  }

  /** The findings from index `from` on, numbered, for an assertion message. */
  report(from = 0): string {
    return this.failures.slice(from).map((f, i) => `${i + 1}. ${f}`).join('\n');
  }
}
