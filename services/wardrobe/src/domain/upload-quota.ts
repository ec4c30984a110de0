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
