export { buildApp } from './app.ts';
export { loadVtoConfig } from './config.ts';
