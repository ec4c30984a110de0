import { type BlobStorage, type ObjectInfo, objectInfoOf } from '@hs/storage';

export type MemoryBlobStorage = BlobStorage & {
  /** What was stored, by key: tests read and plant objects here. */
  objects: Map<string, { bytes: Uint8Array; info: ObjectInfo }>;
  /** Makes writes fail like an unreachable bucket. */
  failWrites: boolean;
};

/** BlobStorage in a Map, shaped like the local backend (`local://key` refs); no signed uploads. */
export function createMemoryBlobStorage(): MemoryBlobStorage {
  const objects: MemoryBlobStorage['objects'] = new Map();
  const storage: MemoryBlobStorage = {
    backend: 'local',
    objects,
    failWrites: false,
    async put(key, bytes, contentType) {
      if (storage.failWrites) throw new Error('storage down');
      const info = objectInfoOf(key, bytes, contentType);
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
      throw new Error('the in-memory blob storage signs no uploads');
    },
    refFor: (key) => `local://${key}`,
  };
  return storage;
}
