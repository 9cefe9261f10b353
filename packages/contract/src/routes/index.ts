import type { Operation } from '../operation.js';
import { agentOperations } from './agents.js';
import { capabilityOperations } from './capabilities.js';
import { conversationOperations } from './conversations.js';
import { coreOperations } from './core.js';
import { providerKeyOperations } from './provider-keys.js';
import { personaOperations } from './personas.js';
import { runOperations } from './runs.js';
import { testSuiteOperations } from './test-suites.js';
import { testOperations } from './tests.js';
import { traceOperations } from './traces.js';
import { monitoringOperations } from './monitoring.js';

export * from './agents.js';
export * from './capabilities.js';
export * from './conversations.js';
export * from './core.js';
export * from './monitoring.js';
export * from './provider-keys.js';
export * from './personas.js';
export * from './runs.js';
export * from './test-suites.js';
export * from './tests.js';
export * from './traces.js';

/** Every operation of the interface, in document order. Each capability adds its list here. */
export const operations: readonly Operation[] = [
  ...coreOperations,
  ...conversationOperations,
  ...agentOperations,
  ...capabilityOperations,
  ...providerKeyOperations,
  ...testOperations,
  ...personaOperations,
  ...testSuiteOperations,
  ...runOperations,
  ...traceOperations,
  ...monitoringOperations,
];

