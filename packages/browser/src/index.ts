export * from './address-guard.ts';
export * from './forbidden-address.ts';
export * from './guard-proxy.ts';
export * from './local-chromium.ts';
export * from './page-elements.ts';
export * from './private-merchant-hosts.ts';
export * from './session-pool.ts';
