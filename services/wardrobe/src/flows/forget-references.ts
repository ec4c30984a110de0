import { nowIso } from '@hs/service-kit';
import { ABORT } from '@hs/store';
import type { WardrobeContext } from '../context.ts';

type Ref = { type: 'ITEM' | 'OUTFIT'; id: string };

/** Drops the reference from every collection of the household (one atomic change each). */
async function removeFromCollections(ctx: WardrobeContext, householdId: string, ref: Ref, now: string) {
  for (const collectionId of await ctx.collections.ids(householdId)) {
    await ctx.collections.change(householdId, collectionId, (c) => {
      const entries = c.entries.filter((e) => !(e.type === ref.type && e.id === ref.id));
      return entries.length === c.entries.length ? ABORT : { ...c, entries, updatedAt: now };
    });
  }
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
