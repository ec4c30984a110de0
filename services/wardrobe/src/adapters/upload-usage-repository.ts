import { ABORT, type CollectionOptions, type Store } from '@hs/store';
import { grantFor, livePending, type PendingUploads, withoutImages } from '../domain/upload-quota.ts';

type UploadUsage = { householdId: string; bytes: number; pending?: PendingUploads };
/** No query reads a household's pending uploads; on Firestore each of their keys is left unindexed. */
export const UPLOAD_USAGE_COLLECTIONS = {
  upload_usage: { unindexedFields: ['pending'] },
} satisfies Record<string, CollectionOptions>;

/** Told about bytes that could not be given back (the count stays too high until a recount). */
export type LostRelease = (err: unknown, householdId: string, bytes: number) => void;

/** One upload URL a member asks for: its image, when it counts as abandoned, the member's bound. */
export type UploadSlot = { memberId: string; imageId: string; abandonAt: number; maxPerMember: number };

/** What a reservation got: the bytes taken (0: quota used up), or the member's bound reached. */
export type Reservation = { granted: number; memberAtBound: boolean };

/**
 * The image bytes each household holds, one counter document per household: an upload URL takes
 * its bytes atomically, so a burst of upload URLs can't pass the quota together. The same
 * document holds each member's unconfirmed upload URLs, so one member can't hold more than their
 * bound of them; an entry frees itself when its upload is abandoned. A household from before the
 * counter is counted once from its items (`countExisting`).
 */
export function createUploadUsageRepository(store: Store, onLostRelease: LostRelease) {
  const usage = store.collection<UploadUsage>('upload_usage', UPLOAD_USAGE_COLLECTIONS.upload_usage);

  return {
    /**
     * Takes up to `wanted` bytes of the household's `quota` (less when less is left) for one
     * member's upload URL. Nothing is taken when the quota is used up or the member already
     * holds `slot.maxPerMember` unconfirmed URLs.
     */
    async reserve(
      householdId: string,
      wanted: number,
      quota: number,
      countExisting: () => Promise<number>,
      slot: UploadSlot | null,
    ): Promise<Reservation> {
      const counted = (await usage.get(householdId)) ? 0 : await countExisting();
      const result: Reservation = { granted: 0, memberAtBound: false };
      await usage.update(householdId, (current) => {
        const used = current ? current.bytes : counted;
        const pending = livePending(current?.pending, Date.now());
        const held = slot ? Object.keys(pending[slot.memberId] ?? {}).length : 0;
        result.memberAtBound = slot !== null && held >= slot.maxPerMember;
        result.granted = result.memberAtBound ? 0 : grantFor(used, quota, wanted);
        if (slot && result.granted > 0)
          pending[slot.memberId] = { ...pending[slot.memberId], [slot.imageId]: slot.abandonAt };
        // The first count is kept even when nothing is left, so it is not counted again.
        return result.granted > 0 || !current
          ? { householdId, bytes: used + result.granted, pending }
          : ABORT;
      });
      return result;
    },
    /**
     * Gives bytes back (a dropped or deleted image, an upload URL not handed out) and frees the
     * upload URLs of `settledImageIds` (confirmed or gone). Never throws: the image is gone
     * already, and failing its request would leave the rest of its clean-up undone; a failure is
     * reported and the next recount sets the count right (a URL entry frees itself in time).
     */
    async release(
      householdId: string,
      bytes: number,
      settledImageIds: readonly string[] = [],
    ): Promise<void> {
      if (bytes <= 0 && settledImageIds.length === 0) return;
      await usage
        .update(householdId, (current) =>
          current
            ? {
                ...current,
                bytes: Math.max(0, current.bytes - Math.max(0, bytes)),
                pending: withoutImages(current.pending, settledImageIds),
              }
            : ABORT,
        )
        .catch((err: unknown) => onLostRelease(err, householdId, bytes));
    },
    /**
     * Sets the household's count to what its images hold, healing a count that lost a give-back.
     * A reservation taken meanwhile whose image is not recorded yet is not in `bytes`, so the
     * quota may be passed by that one upload.
     */
    async recount(householdId: string, bytes: number): Promise<void> {
      await usage.update(householdId, (current) => ({ ...current, householdId, bytes }));
    },
    /** Counts bytes that were not reserved first (an image from before the quota, confirmed now). */
    async add(householdId: string, bytes: number): Promise<void> {
      if (bytes <= 0) return;
      await usage.update(householdId, (current) =>
        current ? { ...current, bytes: current.bytes + bytes } : ABORT,
      );
    },
  };
}

export type UploadUsageRepository = ReturnType<typeof createUploadUsageRepository>;
