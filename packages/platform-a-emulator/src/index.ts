export { type Emulator, type EmulatorOptions, startEmulator } from './server.js';
export { EmulatorState, LIST_WINDOW_SECS, SeedError } from './state.js';
export { generateConversations, transcriptFor } from './generate.js';
export type * from './types.js';
