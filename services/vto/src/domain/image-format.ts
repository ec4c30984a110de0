/** Image formats the service recognises from their first bytes (never from a claimed content type). */
export type ImageMime = 'image/png' | 'image/jpeg';

export type Image = { bytes: Uint8Array; mimeType: ImageMime };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function sniffImage(bytes: Uint8Array): ImageMime | null {
  if (bytes.length >= 8 && PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  return null;
}

/** Width and height from a PNG's IHDR chunk, read before decoding so a huge canvas is refused cheaply. */
export function pngDimensions(bytes: Uint8Array): { width: number; height: number } | null {
  if (sniffImage(bytes) !== 'image/png' || bytes.length < 24) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const isIhdr = bytes[12] === 0x49 && bytes[13] === 0x48 && bytes[14] === 0x44 && bytes[15] === 0x52;
  if (!isIhdr) return null;
  return { width: view.getUint32(16), height: view.getUint32(20) };
}
