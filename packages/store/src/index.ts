export * from './types.ts';
export { createStore, type StoreConfig } from './create-store.ts';
