export { WARDROBE_COLLECTIONS } from './adapters/item-repository.ts';
export { buildApp } from './app.ts';
export { loadWardrobeConfig } from './config.ts';
