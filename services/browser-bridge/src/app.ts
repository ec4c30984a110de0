import { createAuditWriter } from '@hs/audit-client';
import {
  createHouseholdMembers,
  createPeerClient,
  createServiceApp,
  HOURLY_HOUSEKEEPING,
  HOUSEKEEPING_STOP_WAIT_MS,
  type HouseholdMembers,
  registerInternalAuth,
  type ServiceApp,
  startPeriodic,
} from '@hs/service-kit';
import { type BlobStorage, createBlobStorageFromSettings } from '@hs/storage';
import type { Store } from '@hs/store';
import type { Logger } from 'pino';
import { createBridgeInstances, type InstanceIdentity } from './adapters/bridge-instances.ts';
import type { BrowserProvider } from './adapters/browser-provider.ts';
import { createBrowserProvider } from './adapters/create-provider.ts';
import { createMissionEvents } from './adapters/mission-events.ts';
import { createRecordings } from './adapters/recordings.ts';
import { createSeenWebhookIds } from './adapters/seen-webhook-ids.ts';
import { createSessionRepository } from './adapters/session-repository.ts';
import type { BrowserBridgeConfig } from './config.ts';
import { createExtensionEvents } from './flows/extension-events.ts';
import { createLiveView } from './flows/live-view.ts';
import { createSessionFlows } from './flows/session-flows.ts';
import { registerRoutes } from './routes/index.ts';

export interface BrowserBridgeDeps {
  config: BrowserBridgeConfig;
  store: Store;
  logger?: Logger | false;
  /** Tests may inject a provider (a failing one, say); otherwise BROWSER_PROVIDER picks one. */
  provider?: BrowserProvider;
  /** Where recordings go; otherwise ARTIFACT_* settings decide. */
  storage?: BlobStorage;
  /** Who belongs to a household now; otherwise the gateway is asked (live view links). */
  members?: HouseholdMembers;
  now?: () => number;
  /**
   * The registration of a `local` bridge process (adapters/bridge-instances.ts): its lease, how
   * often it looks for sessions of processes gone, and (tests) the host and pid it reports.
   */
  instances?: { leaseMs?: number; sweepMs?: number; identity?: InstanceIdentity };
}

/** How often a local bridge looks for open sessions whose process has gone. */
const ORPHAN_SWEEP_MS = 15_000;

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
  // An idle local session ends like a terminate (state, recording); the flows exist only below.
  let onIdle: (sessionId: string) => void = () => {};
  // One whose browser ended on its own (crash, killed as frozen) is FAILED, not left ACTIVE.
  let onLost: (sessionId: string) => void = () => {};
  const provider =
    deps.provider ??
    createBrowserProvider(
      config.browser,
      (id) => onIdle(id),
      (id) => onLost(id),
    );
  const real = provider.name !== 'simulated';
  // A local browser dies with this process: the process registers itself, stamps its sessions,
  // and ends the sessions of processes gone before it (at boot, then every ORPHAN_SWEEP_MS).
  const instances =
    provider.name === 'local'
      ? createBridgeInstances(store, {
          ...(deps.instances?.leaseMs ? { leaseMs: deps.instances.leaseMs } : {}),
          ...(deps.instances?.identity ? { identity: deps.instances.identity } : {}),
        })
      : null;
  const artifacts = createPeerClient({
    service: 'artifacts-audit',
    ...config.peers['artifacts-audit'],
    timeoutMs: config.internalTimeoutMs,
  });
  // Only recordings need it: a registration given up becomes a SYSTEM entry of the household.
  const audit = createAuditWriter({
    store,
    ledger: artifacts,
    sourceService: 'browser-bridge',
    maxBackoffMs: 60_000,
    logger: deps.logger || undefined,
  });
  const recordings = real
    ? createRecordings({
        store,
        storage:
          deps.storage ??
          createBlobStorageFromSettings(config.storage, {
            publicBaseUrl: config.publicBaseUrl,
            logger: deps.logger || undefined,
          }),
        artifacts,
        audit,
        logger: deps.logger || undefined,
      })
    : null;
  if (recordings) {
    app.addHook('onReady', async () => {
      audit.outbox?.start();
      recordings.outbox.start();
    });
    app.addHook('onClose', async () => {
      await recordings.outbox.stop();
      await audit.outbox?.stop();
    });
  }
  app.addHook('onClose', async () => provider.close?.());
  const live = provider.livePage
    ? createLiveView({
        sessions,
        provider,
        secret: config.browser.liveViewSecret,
        members:
          deps.members ??
          createHouseholdMembers(
            createPeerClient({
              service: 'gateway',
              ...config.peers.gateway,
              timeoutMs: config.internalTimeoutMs,
            }),
          ),
      })
    : null;
  const sessionFlows = createSessionFlows({
    sessions,
    provider,
    missionEvents,
    defaultStartUrl: config.browser.defaultStartUrl,
    allowPrivateHosts: config.browser.allowPrivateHosts,
    householdShare: real
      ? {
          max: config.browser.maxSessionsPerHousehold,
          maxPerUser: config.browser.maxSessionsPerUser,
          idleMs: config.browser.idleMs,
        }
      : null,
    recordings,
    liveView: live ? { secret: config.browser.liveViewSecret, publicBaseUrl: config.publicBaseUrl } : null,
    instanceId: instances?.id ?? null,
    logger: deps.logger || undefined,
  });
  if (instances) {
    const log = deps.logger || undefined;
    // Its failure is logged here: the first sweep runs at boot, which it must not stop.
    const sweep = () =>
      sessionFlows
        .endOrphaned((id) => instances.isGone(id), config.browser.idleMs)
        .then((ended) => {
          if (ended.length) log?.warn({ ended }, 'failed the sessions of a bridge process that is gone');
          return sessionFlows.closeEndedElsewhere();
        })
        .then((closed) => {
          if (closed.length)
            log?.info({ closed }, 'closed the browsers of sessions ended by another replica');
        })
        .catch((err) => log?.warn({ err }, 'sweep of orphaned browser sessions failed'));
    let sweeps: ReturnType<typeof startPeriodic> | null = null;
    let purge: ReturnType<typeof startPeriodic> | null = null;
    // At boot, before the first request: a restarted process frees what its predecessor held
    // (the registration first, so a replica booting beside it never takes it for gone).
    app.addHook('onReady', async () => {
      await instances.start((err) => log?.warn({ err }, 'bridge instance lease not renewed'));
      await sweep();
      sweeps = startPeriodic(sweep, {
        everyMs: deps.instances?.sweepMs ?? ORPHAN_SWEEP_MS,
        logger: log,
        failure: 'sweep of orphaned browser sessions failed',
      });
      // Registrations of processes gone for a day (each start adds one) are no longer read.
      purge = startPeriodic(() => instances.purgeStale(), {
        ...HOURLY_HOUSEKEEPING,
        logger: log,
        failure: 'bridge instance purge failed',
      });
    });
    app.addHook('onClose', async () => {
      // The sweep under way ends first: it writes to the store the close goes on to release.
      await sweeps?.stop();
      await purge?.stop(HOUSEKEEPING_STOP_WAIT_MS);
      await instances.retire().catch((err) => log?.warn({ err }, 'bridge instance not retired'));
    });
  }
  onIdle = (id) =>
    void sessionFlows
      .terminate(id)
      .catch((err) => (deps.logger || undefined)?.warn({ err, sessionId: id }, 'idle session not ended'));
  onLost = (id) =>
    void sessionFlows
      .lost(id, 'The browser ended unexpectedly (crashed or stopped answering)')
      .catch((err) => (deps.logger || undefined)?.warn({ err, sessionId: id }, 'lost session not failed'));
  registerRoutes(app, {
    live,
    sessions: sessionFlows,
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
