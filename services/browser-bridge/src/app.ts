import { createPeerClient, createServiceApp, registerInternalAuth, type ServiceApp } from '@hs/service-kit';
import type { Store } from '@hs/store';
import type { Logger } from 'pino';
import type { BrowserProvider } from './adapters/browser-provider.ts';
import { createBrowserProvider } from './adapters/create-provider.ts';
import { createMissionEvents } from './adapters/mission-events.ts';
import { createSeenWebhookIds } from './adapters/seen-webhook-ids.ts';
import { createSessionRepository } from './adapters/session-repository.ts';
import type { BrowserBridgeConfig } from './config.ts';
import { createExtensionEvents } from './flows/extension-events.ts';
import { createSessionFlows } from './flows/session-flows.ts';
import { registerRoutes } from './routes/index.ts';

export interface BrowserBridgeDeps {
  config: BrowserBridgeConfig;
  store: Store;
  logger?: Logger | false;
  /** Tests may inject a provider (a failing one, say); otherwise BROWSER_PROVIDER picks one. */
  provider?: BrowserProvider;
  now?: () => number;
}

export async function buildApp(deps: BrowserBridgeDeps): Promise<ServiceApp> {
  const { config, store } = deps;
  const app = await createServiceApp({
    service: 'browser-bridge',
    description:
      'Interactive browser sessions for missions: the agent acts, the user takes over and releases, extension events reach the mission.',
    logger: deps.logger ?? false,
    config,
    readiness: { store: () => store.ping() },
  });
  registerInternalAuth(app, { token: config.internalToken });

  const sessions = createSessionRepository(store);
  const orchestrator = createPeerClient({
    service: 'orchestrator',
    ...config.peers.orchestrator,
    timeoutMs: config.internalTimeoutMs,
  });
  const missionEvents = createMissionEvents(orchestrator);
  registerRoutes(app, {
    sessions: createSessionFlows({
      sessions,
      provider: deps.provider ?? createBrowserProvider(config.browser.provider),
      missionEvents,
      defaultStartUrl: config.browser.defaultStartUrl,
      logger: deps.logger || undefined,
    }),
    events: createExtensionEvents({
      sessions,
      seenIds: createSeenWebhookIds(store, deps.now),
      missionEvents,
      enforceSignatures: config.browser.enforceEventSignatures,
      signingSecret: config.browser.eventSigningSecret,
      ...(deps.now ? { now: deps.now } : {}),
    }),
  });
  return app;
}
