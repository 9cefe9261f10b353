import type { Operation } from '../operation.js';
import { conversationOperations } from './conversations.js';
import { coreOperations } from './core.js';
import { monitoringOperations } from './monitoring.js';

export * from './conversations.js';
export * from './core.js';
export * from './monitoring.js';

/** Every operation of the interface, in document order. Each capability adds its list here. */
export const operations: readonly Operation[] = [...coreOperations, ...conversationOperations, ...monitoringOperations];
