import {
  createHouseholdMembers,
  createPeerClient,
  createServiceApp,
  peerHealthCheck,
  registerInternalAuth,
  type ServiceApp,
} from '@hs/service-kit';
import { asLocalStorage, type BlobStorage, createBlobStorageFromSettings } from '@hs/storage';
import type { Store } from '@hs/store';
import type { Logger } from 'pino';
import { createCollectionRepository } from './adapters/collection-repository.ts';
import { createCommerceOffers } from './adapters/commerce-offers.ts';
import { createItemRepository } from './adapters/item-repository.ts';
import { createOutfitRepository } from './adapters/outfit-repository.ts';
import { createUploadUsageRepository } from './adapters/upload-usage-repository.ts';
import type { WardrobeConfig } from './config.ts';
import type { WardrobeContext } from './context.ts';
import { registerCollectionRoutes } from './routes/collections.ts';
import { registerCurationRoutes } from './routes/curation.ts';
import { registerFeedRoutes } from './routes/feed.ts';
import { registerImageRoutes } from './routes/images.ts';
import { registerItemRoutes } from './routes/items.ts';
import { registerPairingRoutes } from './routes/pairings.ts';
import { registerUploadRoutes } from './routes/uploads.ts';

export interface WardrobeDeps {
  config: WardrobeConfig;
  store: Store;
  logger?: Logger | false;
  /** Tests may inject storage (e.g. Cloud Storage against a local fake); otherwise from config. */
  storage?: BlobStorage;
}

/** Commerce is optional for curation and the feed: don't let a slow one hold them up for long. */
const COMMERCE_TIMEOUT_MS = 3000;

export async function buildApp(deps: WardrobeDeps): Promise<ServiceApp> {
  const { config, store } = deps;
  const app = await createServiceApp({
    service: 'wardrobe',
    description:
      'The household wardrobe: items with images (signed uploads), curated looks, outfits, the feed and collections. Reads carry strong ETags; GET /items syncs with updatedSince and tombstones.',
    logger: deps.logger ?? false,
    config,
    readiness: { store: () => store.ping(), gateway: peerHealthCheck(config.peers.gateway) },
  });
  registerInternalAuth(app, { token: config.internalToken });
  const peer = (service: 'gateway' | 'commerce', timeoutMs = config.internalTimeoutMs) =>
    createPeerClient({ service, ...config.peers[service], timeoutMs });
  const storage =
    deps.storage ??
    createBlobStorageFromSettings(config.storage, {
      publicBaseUrl: config.uploads.publicBaseUrl,
      logger: deps.logger || undefined,
    });
  const ctx: WardrobeContext = {
    config,
    items: createItemRepository(store, config.limits.maxItemsPerHousehold),
    outfits: createOutfitRepository(store, config.limits.maxOutfitsPerHousehold),
    collections: createCollectionRepository(store),
    storage,
    uploadUsage: createUploadUsageRepository(store, (err, householdId, bytes) =>
      app.log.error(
        { err, householdId, bytes },
        'image bytes not given back to the household quota; recounted when it is next full',
      ),
    ),
    members: createHouseholdMembers(peer('gateway')),
    offers: createCommerceOffers(peer('commerce'), Math.min(COMMERCE_TIMEOUT_MS, config.internalTimeoutMs)),
  };
  // A failure (store down at boot) is retried by the first delete that needs the backfill.
  ctx.collections
    .prepare()
    .catch((err: unknown) => app.log.warn({ err }, 'feed collection backfill failed; retried on first use'));
  registerItemRoutes(app, ctx);
  registerImageRoutes(app, ctx);
  registerCurationRoutes(app, ctx);
  registerPairingRoutes(app, ctx);
  registerFeedRoutes(app, ctx);
  registerCollectionRoutes(app, ctx);
  const local = asLocalStorage(storage);
  if (local) registerUploadRoutes(app, ctx, local);
  return app;
}
