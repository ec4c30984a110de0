import type { ServiceApp } from '@hs/service-kit';
import type { GatewayContext } from '../../context.ts';
import { registerAgentIntentRoutes } from './agent-intents.ts';
import { registerCallbackRoutes } from './callbacks.ts';
import { registerCheckoutRoutes } from './checkout.ts';
import { registerCreateAndReadRoutes } from './create-and-read.ts';
import { registerDecisionRoutes } from './decisions.ts';
import { registerIntentRoutes } from './intents.ts';

/** The buy flow: purchase requests from creation to the confirmed checkout (decisions.md). */
export function registerPurchaseRequestRoutes(app: ServiceApp, ctx: GatewayContext): void {
  registerCreateAndReadRoutes(app, ctx);
  registerDecisionRoutes(app, ctx);
  registerIntentRoutes(app, ctx);
  registerCallbackRoutes(app, ctx);
  registerCheckoutRoutes(app, ctx);
  registerAgentIntentRoutes(app, ctx);
}
