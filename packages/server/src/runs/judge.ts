import type { BehaviorResult, EndReason, ToolCallRecord, TranscriptEntry } from '@svc/contract';
import { z } from 'zod';
import { LlmError, type LlmClient } from './llm.js';

/** Version of the rubric prompt, stored with every result it graded; change it whenever the text below changes. */
export const JUDGE_PROMPT_VERSION = 'judge-v1';

const RUBRIC = [
  `You grade a phone conversation between a simulated caller and a voice agent under test (rubric ${JUDGE_PROMPT_VERSION}).`,
  'For every expected behavior, judge only the agent\'s conduct as the transcript shows it:',
  '- "passed": the transcript clearly shows the agent did what the behavior asks (for a prohibition, that it never did the prohibited thing).',
  '- "failed": otherwise, including when the evidence is missing or ambiguous. Do not give the benefit of the doubt.',
  '- "rationale": one or two sentences naming what the agent said or did, citing transcript indexes.',
  '- "turns": the transcript indexes the verdict rests on ([] when nothing in the transcript bears on it).',
  'Tool entries show what the agent\'s tools returned (mocked by the test); judge the agent\'s use of them, not the tools.',
  'Return exactly one verdict per behavior index, as JSON matching the schema, and nothing else.',
].join('\n');

const Verdicts = z.object({
  verdicts: z.array(z.object({ index: z.number().int(), verdict: z.enum(['passed', 'failed']), rationale: z.string().min(1), turns: z.array(z.number().int()) })),
});

const SCHEMA = {
  type: 'object',
  properties: {
    verdicts: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          index: { type: 'integer', description: 'The behavior index' },
          verdict: { type: 'string', enum: ['passed', 'failed'] },
          rationale: { type: 'string' },
          turns: { type: 'array', items: { type: 'integer' } },
        },
        required: ['index', 'verdict', 'rationale', 'turns'],
        additionalProperties: false,
      },
    },
  },
  required: ['verdicts'],
  additionalProperties: false,
};

export interface JudgeInput {
  scenario: string;
  behaviors: readonly string[];
  transcript: readonly TranscriptEntry[];
  toolCalls: readonly ToolCallRecord[];
  endReason: EndReason;
}

/** The user message: the scenario and a JSON document of behaviors and transcript (tool entries carry the tool's name). */
export function judgeUserMessage(input: JudgeInput): string {
  const toolName = new Map(input.toolCalls.map((t) => [t.transcript_index, { name: t.name, outcome: t.outcome }]));
  const doc = {
    end_reason: input.endReason,
    behaviors: input.behaviors.map((behavior, index) => ({ index, behavior })),
    transcript: input.transcript.map((e) => ({ index: e.index, role: e.role, text: e.text, ...(toolName.get(e.index) ?? {}) })),
  };
  return `Scenario the caller followed:\n${input.scenario}\n\nBehaviors and transcript:\n\`\`\`json\n${JSON.stringify(doc, null, 2)}\n\`\`\``;
}

/**
 * Grades every behavior with one request at temperature 0. The answer must
 * give each behavior index exactly once and cite only transcript indexes;
 * anything else is `judge_invalid` (never a pass).
 */
export async function grade(llm: LlmClient, input: JudgeInput, signal: AbortSignal): Promise<BehaviorResult[]> {
  let answer;
  try {
    answer = await llm.structured(
      {
        messages: [
          { role: 'system', content: RUBRIC },
          { role: 'user', content: judgeUserMessage(input) },
        ],
        schemaName: 'behavior_verdicts',
        schema: SCHEMA,
        temperature: 0,
        parser: Verdicts,
      },
      signal,
    );
  } catch (err) {
    if (err instanceof LlmError && err.code === 'llm_invalid_output') throw new JudgeError(err.message);
    throw err;
  }
  const byIndex = new Map<number, (typeof answer.verdicts)[number]>();
  for (const v of answer.verdicts) {
    if (v.index < 0 || v.index >= input.behaviors.length) throw new JudgeError(`The judge graded behavior ${v.index}, which does not exist.`);
    if (byIndex.has(v.index)) throw new JudgeError(`The judge graded behavior ${v.index} twice.`);
    const bad = v.turns.find((t) => t < 0 || t >= input.transcript.length);
    if (bad !== undefined) throw new JudgeError(`The judge cited transcript index ${bad}, which does not exist.`);
    byIndex.set(v.index, v);
  }
  const missing = input.behaviors.map((_, i) => i).filter((i) => !byIndex.has(i));
  if (missing.length) throw new JudgeError(`The judge gave no verdict for behavior ${missing.join(', ')}.`);
  return input.behaviors.map((behavior, index) => {
    const v = byIndex.get(index)!;
    return { index, behavior, verdict: v.verdict, rationale: v.rationale, turns: [...new Set(v.turns)].sort((a, b) => a - b) };
  });
}

/** The judge's answer was not a complete, consistent judgement. */
export class JudgeError extends Error {
  readonly code = 'judge_invalid';
}
