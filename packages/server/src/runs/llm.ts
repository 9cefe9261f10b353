import { z } from 'zod';
import type { LlmConfig } from './config.js';
import { UpstreamError, postJson } from './http-client.js';

/** A chat message sent to the model. */
export interface LlmMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** The model failed: unreachable, refused, or its answer is not what was asked for. */
export class LlmError extends Error {
  constructor(
    readonly code: 'llm_unavailable' | 'llm_invalid_output',
    message: string,
  ) {
    super(message);
    this.name = 'LlmError';
  }
}

const Completion = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
});

/** 429, 5xx and network failures are worth another try; other refusals are not. */
const retryable = (status: number) => status === 0 || status === 429 || status >= 500;

/**
 * An OpenAI-compatible chat-completions client asking for structured output:
 * `response_format: {type: "json_schema", json_schema: {name, strict, schema}}`.
 */
export class LlmClient {
  constructor(readonly config: LlmConfig) {}

  /** Sends the messages and returns the answer's JSON, parsed by `parser` (an invalid answer is `llm_invalid_output`). */
  async structured<T>(request: { messages: LlmMessage[]; schemaName: string; schema: Record<string, unknown>; temperature: number; parser: z.ZodType<T> }, signal: AbortSignal): Promise<T> {
    let answer;
    try {
      answer = await postJson(
        `${this.config.baseUrl}/chat/completions`,
        {
          model: this.config.model,
          messages: request.messages,
          temperature: request.temperature,
          response_format: { type: 'json_schema', json_schema: { name: request.schemaName, strict: true, schema: request.schema } },
        },
        {
          headers: this.config.apiKey ? { authorization: `Bearer ${this.config.apiKey}` } : {},
          timeoutMs: this.config.timeoutMs,
          retries: 3,
          retryable,
          signal,
        },
      );
    } catch (err) {
      if (err instanceof UpstreamError) throw new LlmError('llm_unavailable', `The model endpoint ${err.message}.`);
      throw err;
    }
    const completion = Completion.safeParse(answer.body);
    if (!completion.success) throw new LlmError('llm_invalid_output', 'The model endpoint answered without a chat completion.');
    const content = completion.data.choices[0]!.message.content ?? '';
    let json: unknown;
    try {
      json = JSON.parse(content);
    } catch {
      throw new LlmError('llm_invalid_output', `The model answered text that is not JSON: ${content.slice(0, 120)}`);
    }
    const parsed = request.parser.safeParse(json);
    if (!parsed.success) throw new LlmError('llm_invalid_output', `The model's answer does not match the ${request.schemaName} schema: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'answer'}: ${i.message}`).join('; ')}`);
    return parsed.data;
  }
}
