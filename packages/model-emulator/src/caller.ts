import type { ChatMessage } from './types.js';

/** The caller's answer: what it says next and whether it hangs up after it. */
export interface CallerTurn {
  message: string;
  end_call: boolean;
}

const SCRIPT_LINE = /^\s*(?:caller|say)\s*:\s*(.+?)\s*$/i;

/** The text of a `## Heading` section of a prompt, up to the next heading. */
export function section(prompt: string, heading: string): string {
  const lines = prompt.split('\n');
  const start = lines.findIndex((l) => l.trim().toLowerCase() === `## ${heading.toLowerCase()}`);
  if (start < 0) return '';
  const end = lines.findIndex((l, i) => i > start && l.startsWith('## '));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n').trim();
}

/** The `Name:` line of the prompt's `## Persona` section. */
function personaName(prompt: string): string {
  const match = /^name:\s*(.+)$/im.exec(section(prompt, 'Persona'));
  return match ? match[1]!.trim() : 'the caller';
}

/**
 * The caller role. Rules (documented in the README):
 * - the script is every scenario line `Caller: ...` (or `Say: ...`), in order;
 * - turn N (counted as the assistant messages so far) says line N, with
 *   `{persona}` replaced by the persona's name; the last line ends the call;
 * - a scenario without script lines says its first sentence and ends;
 * - past the script, the caller says "Goodbye." and ends.
 */
export function callerTurn(messages: readonly ChatMessage[]): CallerTurn {
  const system = messages.filter((m) => m.role === 'system').map((m) => m.content ?? '').join('\n');
  const scenario = section(system, 'Scenario') || system;
  const name = personaName(system);
  const script = scenario
    .split('\n')
    .map((l) => SCRIPT_LINE.exec(l)?.[1])
    .filter((l): l is string => Boolean(l));
  const taken = messages.filter((m) => m.role === 'assistant').length;
  if (script.length === 0) {
    if (taken > 0) return { message: 'Goodbye.', end_call: true };
    const first = /^[^.!?\n]+[.!?]?/.exec(scenario.trim())?.[0] ?? 'Hello.';
    return { message: first.trim(), end_call: true };
  }
  if (taken >= script.length) return { message: 'Goodbye.', end_call: true };
  return { message: script[taken]!.replaceAll('{persona}', name), end_call: taken === script.length - 1 };
}
