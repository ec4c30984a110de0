import type { PeerClient } from '@hs/service-kit';
import type { Store } from '@hs/store';
import { createCartprepClient } from './cartprep-client.ts';
import { createCheckoutTokenStore } from './checkout-token-store.ts';
import { createIdempotencyStore } from './idempotency-store.ts';
import { createPurchaseRequestRepository } from './purchase-request-repository.ts';
import { createSpendingPolicyRepository } from './spending-policy-repository.ts';

/**
 * How long a keyed attempt holds its key before a retry may run it again: a minute, or longer
 * when the peers' timeout is raised, so that an attempt still waiting on its peers (two calls in
 * a row at most: a purchase intent's dispatch and its second ask) is never run twice beside it.
 */
export const idempotencyLeaseMs = (internalTimeoutMs: number) =>
  Math.max(60_000, 2 * internalTimeoutMs + 5_000);

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
    idempotency: createIdempotencyStore(deps.store, { leaseMs: idempotencyLeaseMs(deps.internalTimeoutMs) }),
    policies: createSpendingPolicyRepository(deps.store),
    cartprep: createCartprepClient(deps.cartprep),
    /** Run the dispatch-recovery sweep in the background (off in tests that drive it by hand). */
    background: deps.background,
  };
}

export type Buyflow = ReturnType<typeof createBuyflow>;
