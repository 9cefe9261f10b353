import { Flags } from '@oclif/core';
import type { PersonaCapabilities } from '@svc/contract';
import { BaseCommand } from '../base-command.js';
import { renderTable } from '../lib/table.js';

const MAX_SHOWN = 8;

function summarize(values: ReadonlyArray<string | number> | undefined): string | null {
  if (!values || values.length === 0) return null;
  const shown = values.slice(0, MAX_SHOWN).join(', ');
  return values.length > MAX_SHOWN ? `${shown} (+${values.length - MAX_SHOWN} more)` : shown;
}

/** One table row per option: status, what can be chosen, and why. */
export function capabilityRows(caps: PersonaCapabilities): Array<Array<string | null>> {
  const { voices, ...rest } = caps;
  const rows: Array<Array<string | null>> = [
    ['voices', voices.status, summarize(voices.choices?.map((v) => v.id)), voices.value?.id ?? null, voices.reason ?? null],
  ];
  for (const [name, option] of Object.entries(rest)) {
    const range = 'range' in option && option.range ? `${option.range.minimum}..${option.range.maximum} step ${option.range.step}` : null;
    rows.push([name, option.status, range ?? summarize(option.choices), option.value === undefined ? null : String(option.value), option.reason ?? null]);
  }
  return rows;
}

export default class Capabilities extends BaseCommand<typeof Capabilities> {
  static override description = 'Show which voice options a speech-synthesis and speech-recognition combination supports';
  static override examples = [
    '<%= config.bin %> capabilities --tts-provider openai --tts-model tts-1 --stt-provider deepgram --stt-model nova-3',
    '<%= config.bin %> capabilities --tts-provider deepgram --tts-model aura-2 --stt-provider deepgram --stt-model nova-3 --voice-id aura-2-thalia-en --json',
  ];
  static override flags = {
    'tts-provider': Flags.string({ description: 'speech-synthesis provider', required: true }),
    'tts-model': Flags.string({ description: 'speech-synthesis model', required: true }),
    'stt-provider': Flags.string({ description: 'speech-recognition provider', required: true }),
    'stt-model': Flags.string({ description: 'speech-recognition model', required: true }),
    language: Flags.string({ description: 'narrow the voices to a language' }),
    'voice-id': Flags.string({ description: 'narrow language and accent to a voice' }),
    refresh: Flags.boolean({ description: 're-read the account\'s voices from the provider' }),
  };

  async run() {
    const f = this.flags;
    const caps = await this.client.personaCapabilities.get({
      ttsProvider: f['tts-provider'],
      ttsModel: f['tts-model'],
      sttProvider: f['stt-provider'],
      sttModel: f['stt-model'],
      ...(this.project ? { projectId: this.project } : {}),
      ...(f.language ? { language: f.language } : {}),
      ...(f['voice-id'] ? { voiceId: f['voice-id'] } : {}),
      ...(f.refresh ? { refresh: 'true' as const } : {}),
    });
    this.out(renderTable(['option', 'status', 'choices', 'value', 'reason'], capabilityRows(caps)));
    return caps;
  }
}
