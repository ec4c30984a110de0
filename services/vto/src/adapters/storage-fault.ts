import { StorageUnavailableError } from '@hs/storage';

/** HTTP statuses of Cloud Storage that mean "not now" rather than "never" (its retryable set). */
const CLOUD_STORAGE_PASSING = new Set([408, 429, 500, 502, 503, 504]);

/**
 * What a blob storage fault that may pass says about itself, or null when `err` is another
 * kind of error. Such a fault is the storage's, not the job's: a full or read-only disk, a
 * directory the service may not write, an I/O error (local files, as StorageUnavailableError),
 * or Cloud Storage answering that it is busy or unavailable. A try-on job that hits one is
 * worth running again later.
 */
export function passingStorageFault(err: unknown): string | null {
  // Its message ends with advice for an HTTP client ("; try again later"); the job says its own.
  if (err instanceof StorageUnavailableError) return err.message.replace(/; try again later$/, '');
  const status = (err as { code?: unknown } | null)?.code;
  // The SDK's ApiError does not set its name.
  if (err instanceof Error && err.constructor.name === 'ApiError' && typeof status === 'number')
    return CLOUD_STORAGE_PASSING.has(status) ? `Cloud Storage answered ${status}` : null;
  return null;
}
