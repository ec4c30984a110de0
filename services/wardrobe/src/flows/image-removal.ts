import { type AppError, type Caller, notFound, nowIso } from '@hs/service-kit';
import type { WardrobeContext } from '../context.ts';
import type { StoredImage } from '../domain/items.ts';
import { assertMayChange } from '../domain/ownership.ts';
import { chargeOf } from '../domain/upload-quota.ts';

/**
 * Deletes one image of an item (pending or confirmed): the record first (atomic; 404 for the
 * item, then the image), then its bytes go back to the household's quota and its file is
 * deleted (an orphaned file is harmless, a record without its file is not).
 */
export async function removeImage(
  ctx: WardrobeContext,
  caller: Caller | null,
  { householdId, itemId, imageId }: { householdId: string; itemId: string; imageId: string },
): Promise<void> {
  let removed: StoredImage | undefined;
  const result = await ctx.items.change(householdId, itemId, (current) => {
    assertMayChange(caller, 'item', current.ownerMemberId);
    removed = current.images.find((i) => i.imageId === imageId);
    if (!removed) throw notFound('Image not found');
    return { ...current, images: current.images.filter((i) => i !== removed), updatedAt: nowIso() };
  });
  if (result.kind === 'missing') throw notFound('Item not found');
  if (result.kind === 'refused') throw result.reason as AppError;
  const image = removed as StoredImage;
  await ctx.uploadUsage.release(householdId, chargeOf(image), [image.imageId]);
  await ctx.storage.delete(image.key).catch(() => undefined);
}
