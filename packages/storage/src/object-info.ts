import { createHash } from 'node:crypto';
import type { ObjectInfo } from './types.ts';

/** What a backend records about bytes it has just written. */
export function objectInfoOf(key: string, bytes: Uint8Array, contentType: string): ObjectInfo {
  return {
    key,
    size: bytes.byteLength,
    contentType,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    updatedAt: new Date().toISOString(),
  };
}
