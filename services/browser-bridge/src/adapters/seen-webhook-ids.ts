// Webhook ids already accepted, kept in the store (collection `browser_webhook_ids`) so every
// replica refuses a replay. An id only needs remembering while its timestamp is acceptable.
import { createHash } from 'node:crypto';
import { ABORT, type CollectionOptions, type Store } from '@hs/store';
import { TOLERANCE_SECONDS } from '../domain/webhook-signature.ts';

type SeenId = { key: string; expiresAt: number };

/** Sender-chosen ids may hold characters a document id cannot; their hash always fits. */
const keyOf = (webhookId: string) => createHash('sha256').update(webhookId).digest('hex');

const KEEP_MS = 2 * TOLERANCE_SECONDS * 1000;
const SWEEP_EVERY_MS = 60_000;

/** The sweep: ids whose expiresAt has passed. */
export const SEEN_WEBHOOK_ID_COLLECTIONS = {
  browser_webhook_ids: { indexes: [{ fields: ['expiresAt'] }] },
} satisfies Record<string, CollectionOptions>;

export function createSeenWebhookIds(store: Store, now: () => number = Date.now) {
  const ids = store.collection<SeenId>(
    'browser_webhook_ids',
    SEEN_WEBHOOK_ID_COLLECTIONS.browser_webhook_ids,
  );
  let lastSweep = 0;

  async function sweep(): Promise<void> {
    const at = now();
    if (at - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = at;
    const old = await ids.query({ where: [['expiresAt', '<', at]], limit: 200 });
    for (const doc of old.items) await ids.delete(doc.key);
  }

  return {
    /** True the first time an id is seen (atomically, across replicas); false for a replay. */
    async remember(webhookId: string): Promise<boolean> {
      const at = now();
      const key = keyOf(webhookId);
      const { changed } = await ids.update(key, (current) =>
        current && current.expiresAt > at ? ABORT : { key, expiresAt: at + KEEP_MS },
      );
      void sweep().catch(() => {});
      return changed;
    },
    /** Lets a sender retry with the same id when the event could not be delivered onward. */
    forget: (webhookId: string) => ids.delete(keyOf(webhookId)).then(() => undefined),
  };
}

export type SeenWebhookIds = ReturnType<typeof createSeenWebhookIds>;
