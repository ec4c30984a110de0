import { setImmediate } from 'node:timers/promises';
import { createAuditWriter } from '@hs/audit-client';
import type { ServiceName } from '@hs/contracts';
import {
  createPeerClient,
  createServiceApp,
  HOURLY_HOUSEKEEPING,
  HOUSEKEEPING_STOP_WAIT_MS,
  peerChecks,
  registerRouteAccess,
  SERVICES,
  type ServiceApp,
  startPeriodic,
} from '@hs/service-kit';
import type { Store } from '@hs/store';
import type { Logger } from 'pino';
import { createAccessTokens } from './adapters/access-tokens.ts';
import { createAccessWatch } from './adapters/access-watch.ts';
import { createBuyflow } from './adapters/buyflow.ts';
import type { CheckoutTokenStore } from './adapters/checkout-token-store.ts';
import { limitConnectionsPerClient } from './adapters/connection-limit.ts';
import { createHouseholdRepository } from './adapters/household-repository.ts';
import {
  createDevIdentityProvider,
  createOidcIdentityProvider,
  type IdentityProvider,
} from './adapters/identity-provider.ts';
import { publicDocument, registerAsyncApiDocument } from './adapters/public-documents.ts';
import { purgeEndedWindows } from './adapters/rate-limit-store.ts';
import { createRefusalBudget } from './adapters/refusal-budget.ts';
import { createUserDirectory } from './adapters/user-directory.ts';
import type { GatewayConfig } from './config.ts';
import type { GatewayContext } from './context.ts';
import { registerAuthentication } from './plugins/authenticate.ts';
import { accessHousehold } from './plugins/household-access.ts';
import { registerRateLimits } from './plugins/rate-limits.ts';
import { registerResourceExistence } from './plugins/resource-exists.ts';
import { registerUpgradeRequests } from './plugins/upgrade-requests.ts';
import { ROUTE_GROUPS } from './routes/index.ts';

const REQUIRED_PEERS = ['orchestrator', 'wardrobe', 'commerce'] as const;
/** Rate-limit windows last a minute; sweeping each minute keeps at most about two windows' worth of keys. */
const RATE_LIMIT_PURGE_INTERVAL_MS = 60_000;

/** Batches of checkout tokens one purge may delete (200 each): up to 5,000 an hour. */
const CHECKOUT_TOKEN_PURGE_BATCHES = 25;

/**
 * Deletes checkout tokens past their retention, a batch at a time, until a batch comes back
 * short, `maxBatches` ran or `signal` aborted (the rest waits for the next purge). Returns how
 * many were deleted.
 */
export async function purgeCheckoutTokens(
  tokens: Pick<CheckoutTokenStore, 'purgeExpired'>,
  options: { now?: number; batch?: number; maxBatches?: number; signal?: AbortSignal } = {},
): Promise<number> {
  const batch = options.batch ?? 200;
  let total = 0;
  for (let i = 0; i < (options.maxBatches ?? CHECKOUT_TOKEN_PURGE_BATCHES) && !options.signal?.aborted; i++) {
    // sqlite answers synchronously: requests get their turn between batches.
    if (i > 0) await setImmediate();
    const deleted = await tokens.purgeExpired(options.now ?? Date.now(), batch);
    total += deleted;
    if (deleted < batch) break;
  }
  return total;
}

export interface GatewayDeps {
  config: GatewayConfig;
  store: Store;
  logger?: Logger | false;
  /** Tests may inject a provider; otherwise AUTH_MODE picks one. */
  identity?: IdentityProvider;
  /** Start background delivery loops (audit outbox); off in tests that drive them by hand. */
  background?: boolean;
}

export async function buildApp(deps: GatewayDeps): Promise<ServiceApp & { ctx: GatewayContext }> {
  const { config, store } = deps;
  const logger = deps.logger || undefined;
  const app = await createServiceApp({
    service: 'gateway',
    description:
      'The public entry point: sign-in, households and members, purchase requests with approval and checkout, spending policy, audit logs and voice sessions. ' +
      'After authentication and the membership check it also forwards these household paths unchanged to the owning service, whose own /openapi.json documents them: ' +
      '/wardrobe/* (wardrobe), /offers* (commerce), /vto/* (vto), /cartprep/jobs/{jobId} (cartprep), /browser/* (browser-bridge), /orchestrator/* (orchestrator, SSE streams passed through unbuffered), ' +
      '/artifacts/*, /missions/{mId}/artifacts and /missions/{mId}/audit (artifacts-audit); /api/v1/uploads/* goes to wardrobe and /artifacts/{artifactId}/content to artifacts-audit without a bearer token (signed URLs). ' +
      'Errors are {error, message, details?}; a peer that is down is 502 UPSTREAM_ERROR, a slow one 504 UPSTREAM_TIMEOUT.',
    logger: deps.logger ?? false,
    config,
    metricsToken: config.internalToken,
    publicDocument: publicDocument('openapi.public.json'),
    // The app cannot work without these (missions, wardrobe, offers); the rest degrade per route.
    readiness: { store: () => store.ping(), ...peerChecks(config.peers, REQUIRED_PEERS) },
    trustProxy: config.trustProxy,
  });
  limitConnectionsPerClient(app.server, config.maxConnectionsPerClient);
  const peers = Object.fromEntries(
    SERVICES.map((service) => [
      service,
      createPeerClient({ service, ...config.peers[service], timeoutMs: config.internalTimeoutMs }),
    ]),
  ) as Record<ServiceName, ReturnType<typeof createPeerClient>>;
  const users = createUserDirectory(store);
  const tokens = createAccessTokens(config.auth, users);
  const identity =
    deps.identity ??
    (config.auth.mode === 'oidc'
      ? createOidcIdentityProvider({
          issuer: config.auth.oidc.issuer!,
          audience: config.auth.oidc.audience!,
          jwksUrl: config.auth.oidc.jwksUrl,
          emailsAlwaysVerified: config.auth.oidc.emailsAlwaysVerified,
          timeoutMs: config.internalTimeoutMs,
        })
      : createDevIdentityProvider());
  const households = createHouseholdRepository(store);
  const ctx: GatewayContext = {
    config,
    store,
    tokens,
    identity,
    households,
    access: createAccessWatch(households, users),
    users,
    audit: createAuditWriter({
      store,
      ledger: peers['artifacts-audit'],
      sourceService: 'gateway',
      logger,
      maxBackoffMs: config.auditRetryMaxMs,
    }),
    refusals: createRefusalBudget(store),
    peers,
    buyflow: createBuyflow({
      store,
      cartprep: peers.cartprep,
      background: deps.background !== false,
      internalTimeoutMs: config.internalTimeoutMs,
    }),
    logger,
  };
  // First: an upgrade request refused by any later check still gets its socket ended.
  await registerUpgradeRequests(app);
  registerAuthentication(app, tokens, config.internalToken);
  registerRouteAccess(app, {
    roleOf: async (request) => {
      const { id } = request.params as { id: string };
      return (await accessHousehold(ctx.households, request, id)).member.role;
    },
  });
  app.addHook('onClose', async () => ctx.access.close());
  // Before the rate limits: a missing resource is 404 before 429 (decisions, order of checks).
  registerResourceExistence(app, ctx);
  await registerRateLimits(app, ctx);
  registerAsyncApiDocument(app);
  for (const register of ROUTE_GROUPS) await register(app, ctx);
  if (deps.background !== false) {
    // Expired Idempotency-Key records and ended rate-limit windows are already ignored; purging
    // them keeps the store from growing with every key and client ever seen. Checkout tokens
    // go on the same schedule, a week after they expired (domain/confirmation-token.ts).
    let purges: Array<ReturnType<typeof startPeriodic>> = [];
    app.addHook('onReady', async () => {
      ctx.audit.outbox?.start();
      purges = [
        startPeriodic(() => ctx.buyflow.idempotency.purgeExpired(), {
          ...HOURLY_HOUSEKEEPING,
          logger,
          failure: 'idempotency purge failed',
        }),
        startPeriodic((signal) => purgeCheckoutTokens(ctx.buyflow.tokens, { signal }), {
          ...HOURLY_HOUSEKEEPING,
          logger,
          failure: 'checkout token purge failed',
        }),
        startPeriodic(() => purgeEndedWindows(ctx.store), {
          everyMs: RATE_LIMIT_PURGE_INTERVAL_MS,
          logger,
          failure: 'rate-limit window purge failed',
        }),
      ];
    });
    app.addHook('onClose', async () => {
      // A purge under way gets a moment to finish before the store closes under it.
      await Promise.all(purges.map((purge) => purge.stop(HOUSEKEEPING_STOP_WAIT_MS)));
      await ctx.audit.outbox?.stop();
    });
  }
  return Object.assign(app, { ctx });
}
