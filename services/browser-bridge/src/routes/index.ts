import type { ServiceApp } from '@hs/service-kit';
import type { ExtensionEvents } from '../flows/extension-events.ts';
import type { LiveView } from '../flows/live-view.ts';
import type { SessionFlows } from '../flows/session-flows.ts';
import { registerBrowserEventRoutes } from './browser-events.ts';
import { registerHouseholdSessionRoutes } from './household-sessions.ts';
import { registerLiveViewRoutes } from './live-view.ts';
import { registerSessionRoutes } from './sessions.ts';

export function registerRoutes(
  app: ServiceApp,
  deps: { sessions: SessionFlows; events: ExtensionEvents; live: LiveView | null },
): void {
  if (deps.live) registerLiveViewRoutes(app, deps.live, deps.sessions);
  registerSessionRoutes(app, deps.sessions);
  registerHouseholdSessionRoutes(app, deps.sessions);
  registerBrowserEventRoutes(app, deps.events);
}
