import type { ChatMessage } from './types.js';

interface Entry {
  index: number;
  role: 'caller' | 'agent' | 'tool';
  text: string | null;
  name?: string;
}

interface JudgeInput {
  end_reason?: string | null;
  transcript: Entry[];
  behaviors: Array<{ index: number; behavior: string }>;
}

export interface Verdict {
  index: number;
  verdict: 'passed' | 'failed';
  rationale: string;
  turns: number[];
}

/** Marks a behavior whose judgement the emulator leaves out, to exercise a malformed answer. */
export const MALFORMED_MARKER = '<judge:malformed>';

const NEGATIVE = /^\s*(never|does not|doesn't|do not|must not)\b/i;
const HANGS_UP = /\b(ends the call|hangs up)\b/i;

/** The JSON document inside the last user message's ```json fence. */
export function judgeInput(messages: readonly ChatMessage[]): JudgeInput {
  const user = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const fenced = /```json\s*\n([\s\S]*?)\n```/.exec(user);
  if (!fenced) throw new Error('the judge prompt carries no ```json block');
  return JSON.parse(fenced[1]!) as JudgeInput;
}

const norm = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}\s]/gu, ' ').replace(/\s+/g, ' ').trim();
const quote = (list: string[]) => list.map((p) => `"${p}"`).join(', ');

/**
 * The judge role. For each behavior, in order (documented in the README):
 * - quoted phrases ("...") must each appear in an agent message;
 * - backticked names (`tool`) must each be a tool the agent called;
 * - "ends the call" / "hangs up" needs the agent to have ended the call;
 * - a behavior starting with "never" / "does not" passes when its phrases and tools are absent;
 * - otherwise the behavior's own words must appear in an agent message.
 */
export function judge(input: JudgeInput): Verdict[] {
  const agent = input.transcript.filter((e) => e.role === 'agent' && e.text);
  const tools = input.transcript.filter((e) => e.role === 'tool');
  return input.behaviors
    .filter((b) => !b.behavior.includes(MALFORMED_MARKER))
    .map((b) => {
      const negative = NEGATIVE.test(b.behavior);
      const phrases = [...b.behavior.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
      const names = [...b.behavior.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
      const said = (p: string) => agent.filter((e) => norm(e.text!).includes(norm(p)));
      const called = (n: string) => tools.filter((e) => e.name === n);
      if (phrases.length === 0 && names.length === 0 && HANGS_UP.test(b.behavior)) {
        const ended = input.end_reason === 'agent_ended';
        const last = agent.at(-1);
        return verdict(b.index, ended !== negative, ended ? 'The agent ended the call.' : `The call ended with ${input.end_reason ?? 'no reason'}, not by the agent.`, last ? [last.index] : []);
      }
      if (phrases.length === 0 && names.length === 0) phrases.push(b.behavior.trim().replace(/[.!]+$/, ''));
      const found = [...phrases.flatMap(said), ...names.flatMap(called)];
      const missing = [...phrases.filter((p) => said(p).length === 0), ...names.filter((n) => called(n).length === 0)];
      const turns = [...new Set(found.map((e) => e.index))].sort((x, y) => x - y);
      if (negative) {
        const present = [...phrases.filter((p) => said(p).length > 0), ...names.filter((n) => called(n).length > 0)];
        return present.length
          ? verdict(b.index, false, `The agent did ${quote(present)} (turns ${turns.join(', ')}).`, turns)
          : verdict(b.index, true, `No agent message or tool call matches ${quote([...phrases, ...names])}.`, []);
      }
      if (missing.length) {
        return verdict(b.index, false, `No agent message or tool call matches ${quote(missing)}.`, turns);
      }
      return verdict(b.index, true, `Found ${quote([...phrases, ...names])} in turns ${turns.join(', ')}.`, turns);
    });
}

function verdict(index: number, passed: boolean, rationale: string, turns: number[]): Verdict {
  return { index, verdict: passed ? 'passed' : 'failed', rationale, turns };
}
