export { buildApp } from './app.ts';
export { loadCartprepConfig } from './config.ts';
