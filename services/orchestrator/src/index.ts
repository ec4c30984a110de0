export { buildApp, type OrchestratorDeps } from './app.ts';
export { loadOrchestratorConfig, type OrchestratorConfig } from './config.ts';
