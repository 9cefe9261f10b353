export { callerTurn, type CallerTurn } from './caller.js';
export { judge, judgeInput, MALFORMED_MARKER, type Verdict } from './judge.js';
export { startModelEmulator, type EmulatorOptions, type ModelEmulator } from './server.js';
export type { ChatMessage, CompletionRequest, RecordedRequest } from './types.js';
