/** A tool call the agent made. */
export interface AgentToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** svc's answer to one tool call. */
export interface ToolResult {
  toolCallId: string;
  name: string;
  /** The answer as JSON text, or `{"error": ...}`. */
  content: string;
  isError: boolean;
  /** The answer as a value (platform_a sends it as `output`). */
  output: unknown;
  error: string | undefined;
}

/** What the agent answered to one request. */
export interface AgentReply {
  reply: string | null;
  toolCalls: AgentToolCall[];
  ended: boolean;
  latencyMs: number;
}

/** One conversation with the agent under test. */
export interface AgentSession {
  /** Sends what the caller said. */
  say(text: string, signal: AbortSignal): Promise<AgentReply>;
  /** Answers the tool calls of the agent's last reply. */
  answerTools(results: readonly ToolResult[], signal: AbortSignal): Promise<AgentReply>;
}

/** The agent broke the protocol or could not be reached. */
export class AgentError extends Error {
  constructor(
    readonly code: 'agent_unreachable' | 'agent_error' | 'agent_protocol',
    message: string,
  ) {
    super(message);
    this.name = 'AgentError';
  }
}
