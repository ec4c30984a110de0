import { type BlobStorage, createBlobStorage } from '@hs/storage';
import type { WardrobeConfig } from '../config.ts';

/** Image storage from ARTIFACT_STORAGE_BACKEND (local files or Cloud Storage). */
export function createImageStorage(config: WardrobeConfig['storage']): BlobStorage {
  if (config.backend === 'local')
    return createBlobStorage({
      backend: 'local',
      dir: config.localDir,
      signingSecret: config.signingSecret,
      publicBaseUrl: config.publicBaseUrl,
    });
  return createBlobStorage({
    backend: 'cloudstore',
    bucket: config.bucket!,
    ...(config.apiEndpoint ? { apiEndpoint: config.apiEndpoint } : {}),
    ...(config.projectId ? { projectId: config.projectId } : {}),
  });
}
