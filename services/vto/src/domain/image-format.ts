import { sniffImageType } from '@hs/contracts';

/** Image formats the service recognises from their first bytes (never from a claimed content type). */
export type ImageMime = 'image/png' | 'image/jpeg';

export type Image = { bytes: Uint8Array; mimeType: ImageMime };

/** PNG or JPEG by signature (the shared sniffer); anything else, WebP included, is not decodable here. */
export function sniffImage(bytes: Uint8Array): ImageMime | null {
  const type = sniffImageType(bytes);
  return type === 'image/png' || type === 'image/jpeg' ? type : null;
}

/** Width and height from a PNG's IHDR chunk, read before decoding so a huge canvas is refused cheaply. */
export function pngDimensions(bytes: Uint8Array): { width: number; height: number } | null {
  if (sniffImage(bytes) !== 'image/png' || bytes.length < 24) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const isIhdr = bytes[12] === 0x49 && bytes[13] === 0x48 && bytes[14] === 0x44 && bytes[15] === 0x52;
  if (!isIhdr) return null;
  return { width: view.getUint32(16), height: view.getUint32(20) };
}
