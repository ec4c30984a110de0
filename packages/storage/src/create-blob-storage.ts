import type { CloudStorageConfig } from './cloud-storage.ts';
import { assertKey } from './keys.ts';
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
      return lazyCloudStorage(config);
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

/**
 * The Cloud Storage client (and the Google auth stack under it) loads on first use, so a
 * service on local storage, the default, never pays for it at boot.
 */
function lazyCloudStorage(config: CloudStorageConfig): BlobStorage {
  let loaded: Promise<BlobStorage> | undefined;
  const cloud = () => {
    loaded ??= import('./cloud-storage.ts').then((m) => m.createCloudStorage(config));
    return loaded;
  };
  return {
    backend: 'cloudstore',
    put: async (key, bytes, contentType) => (await cloud()).put(key, bytes, contentType),
    get: async (key) => (await cloud()).get(key),
    stat: async (key) => (await cloud()).stat(key),
    delete: async (key) => (await cloud()).delete(key),
    signUpload: async (key, options) => (await cloud()).signUpload(key, options),
    refFor: (key) => `gs://${config.bucket}/${assertKey(key)}`,
  };
}
