export type { CloudStorageConfig } from './cloud-storage.ts';
export { asLocalStorage, type BlobStorageConfig, createBlobStorage } from './create-blob-storage.ts';
export { InvalidKeyError, isValidKey } from './keys.ts';
export {
  type LocalSignedFields,
  type SignatureCheck,
  signedLocalUrl,
  UPLOAD_ROUTE_PREFIX,
  verifyLocalUploadSignature,
} from './local-signature.ts';
export { createLocalStorage, type LocalBlobStorage, type LocalStorageConfig } from './local-storage.ts';
export { objectInfoOf } from './object-info.ts';
export {
  createBlobStorageFromSettings,
  type StorageEnv,
  type StorageSettings,
  storageEnvShape,
  storageSettingsFrom,
} from './storage-config.ts';
export { fromFsError, StorageUnavailableError } from './storage-errors.ts';
export * from './types.ts';
export { EmptyUploadError, UploadExistsError, UploadTooLargeError } from './upload-errors.ts';
