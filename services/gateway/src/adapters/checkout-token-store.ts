import type { Store } from '@hs/store';
import { ABORT } from '@hs/store';
import type { StoredCheckoutToken } from '../domain/confirmation-token.ts';

/** Checkout confirmation tokens, keyed by the token's SHA-256 (the token itself is never stored). */
export function createCheckoutTokenStore(store: Store) {
  const tokens = store.collection<StoredCheckoutToken>('checkout_tokens');
  return {
    save: (t: StoredCheckoutToken) => tokens.create(t.tokenHash, t),
    find: (tokenHash: string) => tokens.get(tokenHash),
    /**
     * Spends the token: one compare-and-set that sets usedAt only while it is null. Under any
     * number of concurrent calls exactly one gets true.
     */
    async spend(tokenHash: string, now: string): Promise<boolean> {
      const result = await tokens.update(tokenHash, (t) =>
        t && t.usedAt === null ? { ...t, usedAt: now } : ABORT,
      );
      return result.changed;
    },
  };
}

export type CheckoutTokenStore = ReturnType<typeof createCheckoutTokenStore>;
