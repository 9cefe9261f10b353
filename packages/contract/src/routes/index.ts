import type { Operation } from '../operation.js';
import { conversationOperations } from './conversations.js';
import { coreOperations } from './core.js';
import { personaOperations } from './personas.js';
import { testSuiteOperations } from './test-suites.js';
import { testOperations } from './tests.js';

export * from './conversations.js';
export * from './core.js';
export * from './personas.js';
export * from './test-suites.js';
export * from './tests.js';

/** Every operation of the interface, in document order. Each capability adds its list here. */
export const operations: readonly Operation[] = [
  ...coreOperations,
  ...conversationOperations,
  ...testOperations,
  ...personaOperations,
  ...testSuiteOperations,
];
