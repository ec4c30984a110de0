import type { StoredImage } from './items.ts';

/**
 * What an image holds of its household's upload quota: a pending image its upload URL's limit
 * (the bytes may still come), a confirmed one its size. Images stored before the quota existed
 * carry no charge and count by their size.
 */
export const chargeOf = (image: StoredImage): number => image.chargedBytes ?? image.size ?? 0;

export const chargeOfAll = (images: readonly StoredImage[]): number =>
  images.reduce((sum, image) => sum + chargeOf(image), 0);

/** How much an upload URL may allow: the per-upload limit, or less when the quota is nearly used. */
export const grantFor = (used: number, quota: number, perUpload: number): number =>
  Math.max(0, Math.min(perUpload, quota - used));

/**
 * The upload URLs each member holds that are not confirmed yet: member → image id → when the
 * upload counts as abandoned (ms). Each holds a URL's limit of the quota, so without a bound one
 * member could take the whole household's quota with URLs they never use.
 */
export type PendingUploads = Record<string, Record<string, number>>;

/** The pending uploads `keep` says yes to (members left with none are dropped). */
function keepPending(
  pending: PendingUploads | undefined,
  keep: (imageId: string, abandonAt: number) => boolean,
): PendingUploads {
  const kept: PendingUploads = {};
  for (const [memberId, uploads] of Object.entries(pending ?? {})) {
    const theirs = Object.entries(uploads).filter(([imageId, abandonAt]) => keep(imageId, abandonAt));
    if (theirs.length > 0) kept[memberId] = Object.fromEntries(theirs);
  }
  return kept;
}

/** The household's pending uploads without those past their abandon time (they free themselves). */
export const livePending = (pending: PendingUploads | undefined, nowMs: number): PendingUploads =>
  keepPending(pending, (_imageId, abandonAt) => abandonAt > nowMs);

/** The pending uploads without the given images (confirmed, deleted, or a URL not handed out). */
export const withoutImages = (
  pending: PendingUploads | undefined,
  imageIds: readonly string[],
): PendingUploads => keepPending(pending, (imageId) => !imageIds.includes(imageId));
