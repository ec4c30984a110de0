export { buildApp } from './app.ts';
export { loadWardrobeConfig } from './config.ts';
