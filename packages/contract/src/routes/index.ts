import type { Operation } from '../operation.js';
import { agentOperations } from './agents.js';
import { capabilityOperations } from './capabilities.js';
import { conversationOperations } from './conversations.js';
import { coreOperations } from './core.js';
import { providerKeyOperations } from './provider-keys.js';

export * from './agents.js';
export * from './capabilities.js';
export * from './conversations.js';
export * from './core.js';
export * from './provider-keys.js';

/** Every operation of the interface, in document order. Each capability adds its list here. */
export const operations: readonly Operation[] = [
  ...coreOperations,
  ...conversationOperations,
  ...agentOperations,
  ...capabilityOperations,
  ...providerKeyOperations,
];
