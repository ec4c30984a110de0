import type { ImageContentType } from './wardrobe.ts';

/** How many leading bytes `sniffImageType` needs to decide. */
export const SNIFF_BYTES = 12;

/**
 * The image type the bytes really are, from their signature (PNG, JPEG, WebP), never from a
 * claimed content type: an upload signed for image/png must not store an HTML page that would
 * later be served as an image, and try-on decodes only what it recognises.
 */
export function sniffImageType(bytes: Uint8Array): ImageContentType | null {
  const at = (i: number, ...values: number[]) => values.every((v, n) => bytes[i + n] === v);
  if (bytes.length >= 8 && at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (bytes.length >= 3 && at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  // RIFF....WEBP
  if (bytes.length >= 12 && at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50))
    return 'image/webp';
  return null;
}
