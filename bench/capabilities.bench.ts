// Persona-capabilities lookup latency against the real server: catalog-only,
// espeak-ng (voices from the binary, cached), and account voices (cached, and
// re-read from a local voice-list emulator with refresh=true).
import { client } from '../test/helpers/http.js';
import { startBootstrappedServer } from '../test/helpers/server.js';
import { startVoiceListEmulator } from '../test/helpers/voice-list-emulator.js';

const ROUNDS = 200;
const KEY = 'xi_bench_account_key_0001';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

const emulator = await startVoiceListEmulator([KEY]);
const { server, admin, cleanup } = await startBootstrappedServer({ env: { SVC_ELEVENLABS_URL: emulator.url, SVC_STRICT_RESPONSES: 'false', SVC_RATE_LIMIT_PER_MINUTE: '100000' } });
try {
  const api = client(server.url, admin.api_key);
  await api.put('/api/provider-keys/elevenlabs', { api_key: KEY });
  const cases: Array<[string, string]> = [
    ['catalog only (openai tts-1 + deepgram nova-3)', 'ttsProvider=openai&ttsModel=tts-1&sttProvider=deepgram&sttModel=nova-3'],
    ['91 voices + language (deepgram aura-2, ja)', 'ttsProvider=deepgram&ttsModel=aura-2&sttProvider=deepgram&sttModel=nova-3&language=ja'],
    ['espeak-ng voices (cached)', 'ttsProvider=espeak-ng&ttsModel=espeak-ng-1.51&sttProvider=openai&sttModel=whisper-1'],
    ['account voices (cached)', 'ttsProvider=elevenlabs&ttsModel=eleven_v3&sttProvider=openai&sttModel=whisper-1'],
    ['account voices (refresh=true, local emulator)', 'ttsProvider=elevenlabs&ttsModel=eleven_v3&sttProvider=openai&sttModel=whisper-1&refresh=true'],
  ];
  const rows: string[][] = [];
  for (const [name, query] of cases) {
    const times: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const started = performance.now();
      const res = await api.get(`/v1/persona-capabilities?${query}`);
      times.push(performance.now() - started);
      if (res.status !== 200) throw new Error(`${name}: ${res.status} ${res.text}`);
    }
    times.sort((a, b) => a - b);
    rows.push([name, String(ROUNDS), percentile(times, 50).toFixed(2), percentile(times, 95).toFixed(2), times.at(-1)!.toFixed(2)]);
  }
  const header = ['case', 'requests', 'p50 ms', 'p95 ms', 'max ms'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  for (const row of [header, ...rows]) console.log(row.map((c, i) => c.padEnd(widths[i]!)).join('  '));
} finally {
  await cleanup();
  await emulator.close();
}
