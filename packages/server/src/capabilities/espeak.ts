import { execFile } from 'node:child_process';
import type { VoiceObject } from '@svc/contract';
import { canonicalTag } from './languages.js';

/** espeak-ng's voices as read from the installed binary, or why they could not be read. */
export type EspeakVoices = { ok: true; voices: VoiceObject[] } | { ok: false; reason: string };

/** Options of one synthesis. */
export interface EspeakSpeech {
  /** Voice file or language (`gmw/en-US`, `en-us`), optionally with `+variant`. */
  voice: string;
  /** Words per minute (espeak-ng `-s`, 80..450). */
  speed?: number;
  /** Amplitude (espeak-ng `-a`, 0..200). */
  volume?: number;
}

const TIMEOUT_MS = 15_000;
const MAX_OUTPUT = 64 * 1024 * 1024;

function run(binary: string, args: string[], encoding: 'utf8' | 'buffer'): Promise<{ stdout: string | Buffer }> {
  return new Promise((resolve, reject) => {
    execFile(binary, args, { timeout: TIMEOUT_MS, maxBuffer: MAX_OUTPUT, encoding }, (error, stdout, stderr) => {
      if (error) reject(Object.assign(error, { stderrText: String(stderr).trim() }));
      else resolve({ stdout });
    });
  });
}

const GENDER: Record<string, VoiceObject['presentation']> = { M: 'male', F: 'female' };

/**
 * Parses `espeak-ng --voices`: a header, then `Pty Language Age/Gender
 * VoiceName File [Other Languages]` per row. The voice id is the File column
 * (unique, and accepted by `-v`); names use `_` for spaces.
 */
export function parseEspeakVoices(output: string): VoiceObject[] {
  const voices: VoiceObject[] = [];
  for (const line of output.split('\n').slice(1)) {
    const [, language, ageGender, name, file] = line.trim().split(/\s+/);
    if (!language || !ageGender || !name || !file) continue;
    const tag = canonicalTag(language);
    voices.push({
      id: file,
      name: name.replace(/_/g, ' '),
      source: 'standard',
      presentation: GENDER[ageGender.split('/')[1] ?? ''] ?? 'unknown',
      languages: tag ? [tag] : [],
      accents: [],
    });
  }
  return voices;
}

/**
 * The espeak-ng speech synthesizer, run as a child process: an offline
 * provider whose voices are whatever the installed binary lists. Successful
 * voice lists are kept until `refresh`; a missing binary is re-checked each time.
 */
export class EspeakNg {
  private cached: Promise<EspeakVoices> | undefined;

  constructor(readonly binary: string) {}

  /** The installed voices, or the reason they are unknown (binary absent or failing). */
  voices(refresh = false): Promise<EspeakVoices> {
    if (!this.cached || refresh) {
      const reading = this.readVoices();
      this.cached = reading;
      void reading.then((result) => {
        if (!result.ok && this.cached === reading) this.cached = undefined;
      });
    }
    return this.cached;
  }

  /** Speaks `text` and returns a WAV file. */
  async synthesize(text: string, speech: EspeakSpeech): Promise<Buffer> {
    const args = ['-v', speech.voice, '--stdout'];
    if (speech.speed !== undefined) args.push('-s', String(Math.round(speech.speed)));
    if (speech.volume !== undefined) args.push('-a', String(Math.round(speech.volume)));
    const { stdout } = await run(this.binary, [...args, '--', text], 'buffer');
    return stdout as Buffer;
  }

  private async readVoices(): Promise<EspeakVoices> {
    try {
      const { stdout } = await run(this.binary, ['--voices'], 'utf8');
      const voices = parseEspeakVoices(String(stdout));
      return voices.length > 0 ? { ok: true, voices } : { ok: false, reason: `espeak-ng at "${this.binary}" listed no voices` };
    } catch (err) {
      const e = err as NodeJS.ErrnoException & { stderrText?: string };
      if (e.code === 'ENOENT' || e.code === 'EACCES') {
        return { ok: false, reason: `espeak-ng is not installed at "${this.binary}" (install the Debian package espeak-ng, or set SVC_ESPEAK_NG_PATH), so its voices cannot be read` };
      }
      return { ok: false, reason: `espeak-ng --voices failed: ${e.stderrText || e.message}` };
    }
  }
}
