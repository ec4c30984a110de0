export { buildApp } from './app.ts';
export { loadBrowserBridgeConfig } from './config.ts';
