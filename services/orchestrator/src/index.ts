export { buildApp } from './app.ts';
export { loadOrchestratorConfig } from './config.ts';
