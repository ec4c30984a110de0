export { buildApp } from './app.ts';
export { loadCommerceConfig } from './config.ts';
