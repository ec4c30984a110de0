export * from './outbox.ts';
export * from './refused-for-good.ts';
