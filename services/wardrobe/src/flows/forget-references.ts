import { nowIso } from '@hs/service-kit';
import type { WardrobeContext } from '../context.ts';
import type { EntryRef } from '../domain/collections.ts';

/** Drops the reference from the household's collections that list it (one atomic change each). */
async function removeFromCollections(ctx: WardrobeContext, householdId: string, ref: EntryRef, now: string) {
  for (const collectionId of await ctx.collections.idsHolding(householdId, ref))
    await ctx.collections.removeEntry(householdId, collectionId, ref, now);
}

/**
 * After an outfit is deleted: collections stop listing it. Runs after the delete, so a crash in
 * between leaves a dangling entry, never a missing outfit that still appears complete.
 */
export async function forgetOutfit(
  ctx: WardrobeContext,
  householdId: string,
  outfitId: string,
): Promise<void> {
  await removeFromCollections(ctx, householdId, { type: 'OUTFIT', id: outfitId }, nowIso());
}

/**
 * After an item is deleted: outfits drop it (an outfit left empty is deleted, and collections
 * stop listing it), and collections stop listing the item.
 */
export async function forgetItem(ctx: WardrobeContext, householdId: string, itemId: string): Promise<void> {
  const now = nowIso();
  for (const outfitId of await ctx.outfits.idsWithItem(householdId, itemId)) {
    if ((await ctx.outfits.withoutItem(householdId, outfitId, itemId, now)) === 'deleted')
      await forgetOutfit(ctx, householdId, outfitId);
  }
  await removeFromCollections(ctx, householdId, { type: 'ITEM', id: itemId }, now);
}
