import { ABORT, type Store } from '@hs/store';
import { grantFor } from '../domain/upload-quota.ts';

type UploadUsage = { householdId: string; bytes: number };
/** Told about bytes that could not be given back (the count stays too high until a recount). */
export type LostRelease = (err: unknown, householdId: string, bytes: number) => void;

/**
 * The image bytes each household holds, one counter document per household: an upload URL takes
 * its bytes atomically, so a burst of upload URLs can't pass the quota together. A household
 * from before the counter is counted once from its items (`countExisting`).
 */
export function createUploadUsageRepository(store: Store, onLostRelease: LostRelease) {
  const usage = store.collection<UploadUsage>('upload_usage');
  const change = (householdId: string, delta: number) =>
    usage.update(householdId, (current) =>
      current ? { householdId, bytes: Math.max(0, current.bytes + delta) } : ABORT,
    );

  return {
    /**
     * Takes up to `wanted` bytes of the household's `quota` (less when less is left) and returns
     * how many it took: 0 (nothing taken) when the quota is used up.
     */
    async reserve(
      householdId: string,
      wanted: number,
      quota: number,
      countExisting: () => Promise<number>,
    ): Promise<number> {
      const counted = (await usage.get(householdId)) ? 0 : await countExisting();
      let granted = 0;
      await usage.update(householdId, (current) => {
        const used = current ? current.bytes : counted;
        granted = grantFor(used, quota, wanted);
        // The first count is kept even when nothing is left, so it is not counted again.
        return granted > 0 || !current ? { householdId, bytes: used + granted } : ABORT;
      });
      return granted;
    },
    /**
     * Gives bytes back (a dropped or deleted image, an upload URL not handed out). Never throws:
     * the image is gone already, and failing its request would leave the rest of its clean-up
     * undone; a failure is reported and the next recount sets the count right.
     */
    async release(householdId: string, bytes: number): Promise<void> {
      if (bytes <= 0) return;
      await change(householdId, -bytes).catch((err: unknown) => onLostRelease(err, householdId, bytes));
    },
    /**
     * Sets the household's count to what its images hold, healing a count that lost a give-back.
     * A reservation taken meanwhile whose image is not recorded yet is not in `bytes`, so the
     * quota may be passed by that one upload.
     */
    async recount(householdId: string, bytes: number): Promise<void> {
      await usage.update(householdId, () => ({ householdId, bytes }));
    },
    /** Counts bytes that were not reserved first (an image from before the quota, confirmed now). */
    async add(householdId: string, bytes: number): Promise<void> {
      if (bytes > 0) await change(householdId, bytes);
    },
  };
}

export type UploadUsageRepository = ReturnType<typeof createUploadUsageRepository>;
