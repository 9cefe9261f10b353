import type { AccessVariant, ConnectionType, Modality, PostConnectionsBody, ValidationIssue } from '@svc/contract';
import { AppError } from '../http/errors.js';
import { secretHint } from '../shared/sealing.js';

/** The secrets each access variant carries; `none` carries none. */
const REQUIRED_CREDENTIALS: Record<string, readonly string[]> = {
  api_key: ['apiKey'],
  bearer_token: ['bearerToken'],
  digest: ['username', 'password'],
  none: [],
};

const PRODUCT_LABELS: Record<ConnectionType, string> = {
  platform_a_chat_api: 'platform_a chat API',
  http_chat: 'HTTP chat endpoint',
  websocket: 'WebSocket endpoint',
  sip: 'SIP trunk',
  phone: 'Phone number',
};

/** Config keys that must be present, per connection type, with the URL schemes they accept. */
const REQUIRED_CONFIG: Partial<Record<ConnectionType, { key: string; schemes?: readonly string[] }>> = {
  platform_a_chat_api: { key: 'platformAgentId' },
  http_chat: { key: 'url', schemes: ['http:', 'https:'] },
  websocket: { key: 'url', schemes: ['ws:', 'wss:'] },
};

/** Largest serialized `config` kept. */
const MAX_CONFIG_BYTES = 64 * 1024;

/** A connection body with every default applied. */
export interface ResolvedConnection {
  accessVariant: AccessVariant;
  modality: Modality;
  productLabel: string;
  topology: 'agent-dials-out' | 'svc-dials-in';
  environment: 'production' | 'staging' | 'development';
  config: Record<string, unknown>;
  credentials: Record<string, string> | null;
}

function defaultVariant(type: ConnectionType, credentials: Record<string, string> | undefined): AccessVariant {
  switch (type) {
    case 'platform_a_chat_api':
      return 'platform_a_chat_api.api_key';
    case 'http_chat':
    case 'websocket':
      return credentials?.bearerToken ? `${type}.bearer_token` : `${type}.none`;
    case 'sip':
      return credentials?.password ? 'sip.digest' : 'sip.none';
    case 'phone':
      return 'phone.none';
  }
}

function checkConfig(type: ConnectionType, config: Record<string, unknown>, issues: ValidationIssue[]): void {
  const rule = REQUIRED_CONFIG[type];
  if (rule) {
    const value = config[rule.key];
    if (typeof value !== 'string' || value.trim() === '') issues.push({ path: `config.${rule.key}`, message: `${type} connections need config.${rule.key} (a string)` });
    else if (rule.schemes) {
      let scheme: string | undefined;
      try {
        scheme = new URL(value).protocol;
      } catch {
        scheme = undefined;
      }
      if (!scheme || !rule.schemes.includes(scheme)) issues.push({ path: `config.${rule.key}`, message: `must be a ${rule.schemes.join(' or ').replace(/:/g, '')} URL` });
    }
  }
  if (config.headers !== undefined) {
    const headers = config.headers;
    if (!headers || typeof headers !== 'object' || Array.isArray(headers) || Object.values(headers).some((v) => typeof v !== 'string')) {
      issues.push({ path: 'config.headers', message: 'must be an object of string header values' });
    } else if (Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')) {
      issues.push({ path: 'config.headers.Authorization', message: 'secrets belong in credentials (bearerToken), which are sealed; config is stored in clear' });
    }
  }
  if (Buffer.byteLength(JSON.stringify(config)) > MAX_CONFIG_BYTES) issues.push({ path: 'config', message: `must serialize to at most ${MAX_CONFIG_BYTES} bytes` });
}

function checkCredentials(variant: AccessVariant, credentials: Record<string, string>, issues: ValidationIssue[]): void {
  const kind = variant.slice(variant.indexOf('.') + 1);
  const required = REQUIRED_CREDENTIALS[kind] ?? [];
  if (required.length === 0 && Object.keys(credentials).length > 0) {
    issues.push({ path: 'credentials', message: `${variant} takes no credentials` });
    return;
  }
  for (const name of required) if (!credentials[name]) issues.push({ path: `credentials.${name}`, message: `${variant} needs credentials.${name}` });
  for (const name of Object.keys(credentials)) if (!required.includes(name)) issues.push({ path: `credentials.${name}`, message: `${variant} takes only ${required.join(', ')}` });
}

/**
 * Applies the defaults of a connection body and checks what each type and
 * access variant needs; refuses with 422 `validation_failed` listing every issue.
 */
export function resolveConnection(body: PostConnectionsBody): ResolvedConnection {
  const type = body.connectionType;
  const credentials = body.credentials ?? {};
  const accessVariant = body.accessVariant ?? defaultVariant(type, body.credentials);
  const config = body.config ?? {};
  const issues: ValidationIssue[] = [];
  if (!accessVariant.startsWith(`${type}.`)) issues.push({ path: 'accessVariant', message: `${accessVariant} is not an access variant of ${type}` });
  else checkCredentials(accessVariant, credentials, issues);
  checkConfig(type, config, issues);
  if (issues.length > 0) {
    throw new AppError('validation_failed', `The body is not valid: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, { issues });
  }
  return {
    accessVariant,
    modality: body.modality ?? (type === 'http_chat' ? 'text' : 'voice'),
    productLabel: body.productLabel ?? PRODUCT_LABELS[type],
    topology: body.topology ?? 'svc-dials-in',
    environment: body.environment ?? 'production',
    config,
    credentials: Object.keys(credentials).length > 0 ? credentials : null,
  };
}

/** `bearerToken ...abcd`: each secret's name and what `secretHint` may show of it. */
export function credentialsHint(credentials: Record<string, string> | null): string {
  if (!credentials) return '';
  return Object.entries(credentials)
    .map(([name, value]) => `${name} ${secretHint(value)}`)
    .join(', ');
}
