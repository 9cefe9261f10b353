import { type Server, createServer } from 'node:http';

/** A fault the emulator answers the next voice-list calls with. */
export interface InjectedFault {
  status: number;
  retryAfter?: string;
  /** How many calls get it (default 1). */
  times?: number;
}

/** A voice as the provider's voice list returns it. */
export interface EmulatedVoice {
  voice_id: string;
  name: string;
  category: string;
  labels?: Record<string, string>;
  verified_languages?: Array<{ language: string; model_id?: string; accent?: string; locale?: string }>;
}

/** A running emulator of a speech provider's voice-list endpoint (ElevenLabs-style `GET /v1/voices`, `xi-api-key`). */
export interface VoiceListEmulator {
  url: string;
  /** Voice-list calls received, whatever their outcome. */
  calls: number;
  /** The API keys the calls carried, in order. */
  keysSeen: string[];
  voices: EmulatedVoice[];
  fail(fault: InjectedFault): void;
  close(): Promise<void>;
}

/** Two account voices (a clone and a generated voice) and one premade voice the catalog does not list. */
export const ACCOUNT_VOICES: EmulatedVoice[] = [
  {
    voice_id: 'acct-clone-001',
    name: 'Support Clone',
    category: 'cloned',
    labels: { gender: 'female', accent: 'irish' },
    verified_languages: [
      { language: 'en', model_id: 'eleven_multilingual_v2', locale: 'en-IE', accent: 'irish' },
      { language: 'de', model_id: 'eleven_multilingual_v2', locale: 'de-DE' },
      { language: 'fr', model_id: 'eleven_v3', locale: 'fr-FR' },
    ],
  },
  { voice_id: 'acct-design-002', name: 'Designed Narrator', category: 'generated', labels: { gender: 'male' }, verified_languages: [{ language: 'es' }] },
  { voice_id: 'premade-new-003', name: 'New Premade', category: 'premade', labels: { gender: 'neutral', accent: 'american' } },
];

/**
 * Starts the emulator on 127.0.0.1 (ephemeral port). Keys in `apiKeys` are
 * accepted; others get 401 as the provider answers them. Faults injected with
 * `fail()` are answered before anything else.
 */
export async function startVoiceListEmulator(apiKeys: readonly string[], voices: EmulatedVoice[] = ACCOUNT_VOICES): Promise<VoiceListEmulator> {
  const faults: InjectedFault[] = [];
  const state = { calls: 0, keysSeen: [] as string[] };
  const server: Server = createServer((req, res) => {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/v1/voices') return send(404, { detail: { status: 'not_found', message: 'Not found' } });
    state.calls++;
    const key = String(req.headers['xi-api-key'] ?? '');
    state.keysSeen.push(key);
    const fault = faults[0];
    if (fault) {
      if ((fault.times ?? 1) <= 1) faults.shift();
      else fault.times = (fault.times ?? 1) - 1;
      return send(fault.status, { detail: { status: 'injected', message: `injected ${fault.status}` } }, fault.retryAfter ? { 'retry-after': fault.retryAfter } : {});
    }
    if (!apiKeys.includes(key)) return send(401, { detail: { status: 'invalid_api_key', message: 'Invalid API key' } });
    send(200, { voices });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const emulator: VoiceListEmulator = {
    url: `http://127.0.0.1:${port}`,
    get calls() {
      return state.calls;
    },
    get keysSeen() {
      return state.keysSeen;
    },
    voices,
    fail: (fault) => faults.push({ ...fault }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return emulator;
}
