import { type Caller, forbidden } from '@hs/service-kit';

/** What a member owns in the wardrobe: items (`ownerMemberId`), outfits and collections (`createdBy`). */
export type Owned = 'item' | 'outfit' | 'collection';

/** The refusal a CHILD gets for each, as 403 FORBIDDEN. */
export const CHILD_OWN_ONLY = {
  item: 'A CHILD may change only their own wardrobe items',
  outfit: 'A CHILD may change only their own outfits',
  collection: 'A CHILD may change only their own collections',
} as const satisfies Record<Owned, string>;

/**
 * The roles table, the one place it is applied in the wardrobe: every member adds, edits and
 * deletes their own wardrobe items, images, outfits and collections; PARENT_GUARDIAN and ADULT
 * also anyone else's in the household, a CHILD never. `ownerId` is the owner the thing has, or
 * would have after the change (an item created for, or handed to, another member); null or
 * missing (made by a service's own call, or stored without a creator) is nobody's, so never a
 * CHILD's. A call without a member (a service's own, with its token) is not a member's action.
 */
export function assertMayChange(
  caller: Caller | null,
  what: Owned,
  ownerId: string | null | undefined,
): void {
  if (caller?.role === 'CHILD' && (ownerId ?? null) !== caller.userId) throw forbidden(CHILD_OWN_ONLY[what]);
}
