import type { ServiceApp } from '@hs/service-kit';
import type { ExtensionEvents } from '../flows/extension-events.ts';
import type { SessionFlows } from '../flows/session-flows.ts';
import { registerBrowserEventRoutes } from './browser-events.ts';
import { registerHouseholdSessionRoutes } from './household-sessions.ts';
import { registerSessionRoutes } from './sessions.ts';

export function registerRoutes(
  app: ServiceApp,
  deps: { sessions: SessionFlows; events: ExtensionEvents },
): void {
  registerSessionRoutes(app, deps.sessions);
  registerHouseholdSessionRoutes(app, deps.sessions);
  registerBrowserEventRoutes(app, deps.events);
}
