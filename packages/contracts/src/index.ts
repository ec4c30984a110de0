export * from './audit.ts';
export * from './common.ts';
export * from './households.ts';
export * from './identity.ts';
