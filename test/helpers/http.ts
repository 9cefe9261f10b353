import assert from 'node:assert/strict';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface CallOptions {
  key?: string | undefined;
  body?: unknown;
  /** Raw body text (sent as is, with the given content type). */
  raw?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
}

/** One HTTP call to the server; JSON bodies are parsed when the response is JSON. */
export async function call<T = any>(baseUrl: string, method: string, path: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | Buffer | undefined;
  if (options.raw !== undefined) {
    body = options.raw;
    if (options.contentType) headers['content-type'] = options.contentType;
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = options.contentType ?? 'application/json';
  }
  const response = await fetch(baseUrl + path, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/** A client bound to a server and a key. */
export function client(baseUrl: string, key?: string) {
  return {
    get: <T = any>(path: string, o: CallOptions = {}) => call<T>(baseUrl, 'GET', path, { key, ...o }),
    post: <T = any>(path: string, body?: unknown, o: CallOptions = {}) => call<T>(baseUrl, 'POST', path, { key, body, ...o }),
    put: <T = any>(path: string, body?: unknown, o: CallOptions = {}) => call<T>(baseUrl, 'PUT', path, { key, body, ...o }),
    patch: <T = any>(path: string, body?: unknown, o: CallOptions = {}) => call<T>(baseUrl, 'PATCH', path, { key, body, ...o }),
    delete: <T = any>(path: string, o: CallOptions = {}) => call<T>(baseUrl, 'DELETE', path, { key, ...o }),
  };
}

/** Asserts a refusal: the status, the stable code and the error body shape (nothing else in it). */
export function assertError(response: ApiResponse, status: number, code: string): void {
  assert.equal(response.status, status, `expected ${status} ${code}, got ${response.status}: ${response.text}`);
  const body = response.body as Record<string, unknown>;
  assert.equal(typeof body, 'object', `error body is not JSON: ${response.text}`);
  assert.equal(body.error, code, `expected code ${code}: ${response.text}`);
  assert.equal(typeof body.message, 'string');
  for (const key of Object.keys(body)) assert.ok(['error', 'message', 'details'].includes(key), `unexpected member ${key} in error body`);
}
