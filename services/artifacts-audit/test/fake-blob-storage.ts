import { createHash } from 'node:crypto';
import type { BlobStorage, ObjectInfo } from '@hs/storage';

/** BlobStorage in a Map, with a switch to make writes fail like an unreachable bucket. */
export function createFakeBlobStorage() {
  const objects = new Map<string, { bytes: Uint8Array; info: ObjectInfo }>();
  const state = { failWrites: false };
  const storage: BlobStorage = {
    backend: 'local',
    async put(key, bytes, contentType) {
      if (state.failWrites) throw new Error('storage down');
      const info: ObjectInfo = {
        key,
        size: bytes.byteLength,
        contentType,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        updatedAt: new Date().toISOString(),
      };
      objects.set(key, { bytes: new Uint8Array(bytes), info });
      return info;
    },
    async get(key) {
      return objects.get(key) ?? null;
    },
    async stat(key) {
      return objects.get(key)?.info ?? null;
    },
    async delete(key) {
      objects.delete(key);
    },
    async signUpload() {
      throw new Error('not used by artifacts-audit');
    },
    refFor: (key) => `local://${key}`,
  };
  return { storage, objects, state };
}
