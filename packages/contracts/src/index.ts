export * from './audit.ts';
export * from './common.ts';
export * from './households.ts';
export * from './identity.ts';
export * from './artifacts.ts';
export * from './vto.ts';
export * from './cartprep.ts';
export * from './purchase-requests.ts';
