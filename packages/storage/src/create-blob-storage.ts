import { type CloudStorageConfig, createCloudStorage } from './cloud-storage.ts';
import { createLocalStorage, type LocalBlobStorage, type LocalStorageConfig } from './local-storage.ts';
import type { BlobStorage } from './types.ts';

export type BlobStorageConfig = LocalStorageConfig | CloudStorageConfig;

export function createBlobStorage(config: LocalStorageConfig): LocalBlobStorage;
export function createBlobStorage(config: BlobStorageConfig): BlobStorage;
export function createBlobStorage(config: BlobStorageConfig): BlobStorage {
  switch (config.backend) {
    case 'local':
      return createLocalStorage(config);
    case 'cloudstore':
      return createCloudStorage(config);
    default:
      throw new Error(
        `Unknown blob storage backend ${JSON.stringify((config as { backend: unknown }).backend)}`,
      );
  }
}

/** The local backend's extra abilities (receiving uploads, signed downloads), when it is the one in use. */
export function asLocalStorage(storage: BlobStorage): LocalBlobStorage | null {
  return storage.backend === 'local' && 'receiveUpload' in storage ? (storage as LocalBlobStorage) : null;
}
