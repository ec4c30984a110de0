import { createServiceApp, registerInternalAuth, type ServiceApp } from '@hs/service-kit';
import type { Store } from '@hs/store';
import type { Logger } from 'pino';
import { createOfferRepository } from './adapters/offer-repository.ts';
import type { CommerceConfig } from './config.ts';
import type { CommerceContext } from './routes/context.ts';
import { registerOfferRoutes } from './routes/offers.ts';
import { registerSearchRoutes } from './routes/search.ts';

export interface CommerceDeps {
  config: CommerceConfig;
  store: Store;
  logger?: Logger | false;
}

export async function buildApp(deps: CommerceDeps): Promise<ServiceApp> {
  const { config, store } = deps;
  const app = await createServiceApp({
    service: 'commerce',
    description:
      'Offers a household is looking at: create (one or 500 at once, atomically), status changes, and search by words, price, season, category, colours and size.',
    logger: deps.logger ?? false,
    config,
    readiness: { store: () => store.ping() },
  });
  registerInternalAuth(app, { token: config.internalToken });
  const ctx: CommerceContext = {
    offers: createOfferRepository(store, config.commerce.maxOffersPerHousehold),
    allowedDomains: config.commerce.allowedDomains,
  };
  registerOfferRoutes(app, ctx);
  registerSearchRoutes(app, ctx);
  return app;
}
