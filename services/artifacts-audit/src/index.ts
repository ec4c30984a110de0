export { buildApp } from './app.ts';
export { loadArtifactsAuditConfig } from './config.ts';
