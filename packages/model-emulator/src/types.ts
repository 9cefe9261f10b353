/** One message of an OpenAI-compatible chat-completions request. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool' | 'developer';
  content: string | null;
}

/** The request body the emulator reads. */
export interface CompletionRequest {
  model?: string;
  messages?: ChatMessage[];
  temperature?: number;
  response_format?: { type: string; json_schema?: { name?: string; schema?: unknown; strict?: boolean } };
}

/** One completion request as the admin API reports it. */
export interface RecordedRequest {
  seq: number;
  at: string;
  role: 'caller' | 'judge' | 'text';
  model: string | null;
  temperature: number | null;
  response_format: string | null;
  schema_name: string | null;
  status: number;
}

/** The response-format schema names that select a role. */
export const ROLE_BY_SCHEMA: Record<string, 'caller' | 'judge'> = {
  caller_turn: 'caller',
  behavior_verdicts: 'judge',
};
