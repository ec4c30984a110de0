import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Which service the current work belongs to, when several run in one process (`npm start --
 * --one-process`). A service boots inside `serviceScope.run(name, ...)`, so its server, timers
 * and workers inherit the name: process-wide facilities (the trace exporters) use it to
 * attribute work to the right service.
 */
export const serviceScope = new AsyncLocalStorage<string>();
