import { z } from 'zod';
import type { LlmClient, LlmMessage } from './llm.js';

/** Version of the caller prompt; change it whenever the text below changes. */
export const CALLER_PROMPT_VERSION = 'caller-v1';
const TEMPERATURE = 0.7;

export interface CallerBrief {
  scenario: string;
  personaName: string;
  personaDescription: string | null;
}

/** What the caller said so far and what the agent answered (tool activity is not heard by the caller). */
export type HeardTurn = { role: 'caller' | 'agent'; text: string };

const CallerAnswer = z.object({ message: z.string(), end_call: z.boolean() });
export type CallerAnswer = z.infer<typeof CallerAnswer>;

const SCHEMA = {
  type: 'object',
  properties: {
    message: { type: 'string', description: 'What the caller says next; may be empty only when ending the call' },
    end_call: { type: 'boolean', description: 'True to hang up after this message' },
  },
  required: ['message', 'end_call'],
  additionalProperties: false,
};

/** The caller's system prompt: who it is, what it wants, how it behaves. */
export function callerSystemPrompt(brief: CallerBrief): string {
  return [
    'You are the simulated caller in an automated test of a voice agent. You phone the agent as the person below and pursue the scenario.',
    '',
    '## Persona',
    `Name: ${brief.personaName}`,
    `Description: ${brief.personaDescription ?? 'An ordinary caller.'}`,
    '',
    '## Scenario',
    brief.scenario,
    '',
    '## Rules',
    '- Speak only as the caller: one short, natural message per turn, as said aloud on a phone call.',
    '- Never mention that this is a test, a simulation or that you are an AI.',
    '- Follow the scenario; if it scripts what the caller says, say those lines in order.',
    '- When the scenario is complete, or the agent has said goodbye, set end_call to true (message may hold a last goodbye).',
    '- Answer only with JSON: {"message": string, "end_call": boolean}.',
  ].join('\n');
}

/** The conversation from the caller's side: its own lines are `assistant`, the agent's are `user`. */
export function callerMessages(brief: CallerBrief, heard: readonly HeardTurn[]): LlmMessage[] {
  return [
    { role: 'system', content: callerSystemPrompt(brief) },
    { role: 'user', content: '[The call is connected. You speak first.]' },
    ...heard.map((t): LlmMessage => ({ role: t.role === 'caller' ? 'assistant' : 'user', content: t.text })),
  ];
}

/** Asks the model for the caller's next message. */
export function nextCallerTurn(llm: LlmClient, brief: CallerBrief, heard: readonly HeardTurn[], signal: AbortSignal): Promise<CallerAnswer> {
  return llm.structured({ messages: callerMessages(brief, heard), schemaName: 'caller_turn', schema: SCHEMA, temperature: TEMPERATURE, parser: CallerAnswer }, signal);
}
