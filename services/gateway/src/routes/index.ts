import type { ServiceApp } from '@hs/service-kit';
import type { GatewayContext } from '../context.ts';
import { registerAuditLogRoutes } from './audit-logs.ts';
import { registerAuthRoutes } from './auth.ts';
import { registerHouseholdRoutes } from './households.ts';
import { registerInternalMembershipRoutes } from './internal-membership.ts';
import { registerMemberRoutes } from './members.ts';
import { registerMissionStreamRoutes } from './mission-stream.ts';
import { registerProxyRoutes } from './proxy.ts';
import { registerPurchaseRequestRoutes } from './purchase-requests/index.ts';
import { registerSpendingPolicyRoutes } from './spending-policy.ts';
import { registerVoiceRoutes } from './voice.ts';

/** Every route group of the gateway, in one list. */
export const ROUTE_GROUPS: Array<(app: ServiceApp, ctx: GatewayContext) => void | Promise<void>> = [
  registerAuthRoutes,
  registerHouseholdRoutes,
  registerMemberRoutes,
  registerAuditLogRoutes,
  registerInternalMembershipRoutes,
  registerPurchaseRequestRoutes,
  registerSpendingPolicyRoutes,
  registerVoiceRoutes,
  registerMissionStreamRoutes,
  registerProxyRoutes,
];
