export { buildApp, type GatewayDeps } from './app.ts';
export { DEV_JWT_SECRET, loadGatewayConfig } from './config.ts';
