import type { PeerClient } from '@hs/service-kit';
import type { Store } from '@hs/store';
import { createCartprepClient } from './cartprep-client.ts';
import { createCheckoutTokenStore } from './checkout-token-store.ts';
import { createIdempotencyStore } from './idempotency-store.ts';
import { createPurchaseRequestRepository } from './purchase-request-repository.ts';
import { createSpendingPolicyRepository } from './spending-policy-repository.ts';

/** Everything the buy flow's routes use, built once in app.ts. */
export function createBuyflow(deps: {
  store: Store;
  cartprep: PeerClient;
  background: boolean;
  internalTimeoutMs: number;
}) {
  return {
    requests: createPurchaseRequestRepository(deps.store),
    tokens: createCheckoutTokenStore(deps.store),
    idempotency: createIdempotencyStore(deps.store, { peerTimeoutMs: deps.internalTimeoutMs }),
    policies: createSpendingPolicyRepository(deps.store),
    cartprep: createCartprepClient(deps.cartprep),
    /** Run the dispatch-recovery sweep in the background (off in tests that drive it by hand). */
    background: deps.background,
  };
}

export type Buyflow = ReturnType<typeof createBuyflow>;
