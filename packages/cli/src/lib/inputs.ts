import { readFileSync } from 'node:fs';
import { Flags } from '@oclif/core';
import type { PersonaVoiceInput } from '@svc/contract';
import { parse } from 'yaml';

/** Reads a text file, or standard input for `-`. */
export function readText(file: string): string {
  return readFileSync(file === '-' ? 0 : file, 'utf8');
}

/** Reads a YAML or JSON document (JSON is YAML) from a file or `-`. */
export function readYamlOrJson(file: string): unknown {
  return parse(readText(file));
}

const number = Flags.custom<number>({
  parse: async (input) => {
    const value = Number(input);
    if (!Number.isFinite(value)) throw new Error(`expected a number, got "${input}"`);
    return value;
  },
});

/** The voice-setting flags shared by `personas create` and `personas edit`, named after the wire members. */
export const voiceFlags = {
  'tts-provider': Flags.string({ description: 'speech-synthesis provider', helpGroup: 'VOICE' }),
  'tts-model': Flags.string({ description: 'speech-synthesis model', helpGroup: 'VOICE' }),
  'stt-provider': Flags.string({ description: 'speech-recognition provider', helpGroup: 'VOICE' }),
  'stt-model': Flags.string({ description: 'speech-recognition model', helpGroup: 'VOICE' }),
  'voice-id': Flags.string({ description: 'voice id of the synthesis provider', helpGroup: 'VOICE' }),
  language: Flags.string({ description: 'language tag, e.g. en-US', helpGroup: 'VOICE' }),
  accent: Flags.string({ description: 'accent', helpGroup: 'VOICE' }),
  emotion: Flags.string({ description: 'emotion', helpGroup: 'VOICE' }),
  speed: number({ description: 'speaking speed (1 is normal)', helpGroup: 'VOICE' }),
  'speech-volume': number({ description: 'speech volume (1 is normal)', helpGroup: 'VOICE' }),
};

type VoiceFlagValues = { [K in keyof typeof voiceFlags]?: string | number | undefined };

/** The `voice` member of a persona request from the voice flags (and `--unset` names); undefined when none is given. */
export function voiceFromFlags(flags: VoiceFlagValues, unset: readonly string[] = []): PersonaVoiceInput | undefined {
  const voice: Record<string, string | number | null> = {};
  for (const name of Object.keys(voiceFlags) as Array<keyof typeof voiceFlags>) {
    const value = flags[name];
    if (value !== undefined) voice[name.replace(/-/g, '_')] = value;
  }
  for (const name of unset) voice[name.replace(/-/g, '_')] = null;
  return Object.keys(voice).length ? (voice as PersonaVoiceInput) : undefined;
}
