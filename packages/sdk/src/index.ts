export { Svc } from './client.js';
export * from './core/errors.js';
export { PagedList, type PageResult } from './core/pagination.js';
export { type ClientOptions, type RequestInput, Transport, retryDelayMs } from './core/transport.js';
export * from './resources/conversations.js';
export * from './resources/core.js';
export * from './resources/monitoring.js';
