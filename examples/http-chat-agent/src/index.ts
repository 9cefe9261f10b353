export { type ChatReply, type ChatRequest, type Message, type ToolCall, TOOLS, respond } from './agent.js';
export { type AgentOptions, type RunningAgent, type SeenRequest, startAgent } from './server.js';
