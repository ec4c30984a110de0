// The one place where a file system error of the local backend becomes "storage unavailable":
// a full disk, a read-only mount, a directory the process may not write, a failing device.
import { AppError } from '@hs/service-kit';

/** errno codes that mean the storage itself cannot serve the request, and how to say so. */
const UNAVAILABLE: Record<string, string> = {
  ENOSPC: 'Blob storage is full',
  EDQUOT: 'Blob storage is over its disk quota',
  EFBIG: 'Blob storage is full',
  EROFS: 'Blob storage is read-only (not writable)',
  EACCES: 'Blob storage is not writable (permission denied)',
  EPERM: 'Blob storage is not writable (operation not permitted)',
  EIO: 'Blob storage could not be read or written (I/O error)',
  // On a write, after the directories were made: the storage directory is gone and cannot be
  // created again (a procfs path, a dangling symlink to an unmounted volume).
  ENOENT: 'Blob storage directory is missing and cannot be created',
  ENOTDIR: 'Blob storage directory is not a directory',
  EMFILE: 'Blob storage is busy (too many open files)',
  ENFILE: 'Blob storage is busy (too many open files)',
};

const AFTERMATH = { read: '', write: ': nothing was saved', delete: ': nothing was deleted' };

/**
 * The blob storage cannot take (or give back) bytes because of the storage underneath: a 503
 * SERVICE_UNAVAILABLE in the error envelope (it is an AppError, so every service's error
 * handler answers it as such), with the original file system error kept as `cause` for the log.
 * Nothing was stored: a failed write leaves no partial object behind, so the client may retry.
 */
export class StorageUnavailableError extends AppError {
  /** The file system's errno code, e.g. `ENOSPC`. */
  readonly errno: string;
  constructor(errno: string, message: string, options?: { cause?: unknown }) {
    super('SERVICE_UNAVAILABLE', 503, `${message} (${errno}); try again later`, options);
    this.name = 'StorageUnavailableError';
    this.errno = errno;
  }
}

/**
 * The StorageUnavailableError a file system error stands for, or the error itself when it is
 * another kind (an upload refused for its size, a client that went away, a bug).
 * `during: 'read'` leaves ENOENT alone: there it means "no such object", the caller's to handle.
 */
export function fromFsError(err: unknown, during: 'read' | 'write' | 'delete'): unknown {
  if (err instanceof StorageUnavailableError) return err;
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (typeof code !== 'string' || (during === 'read' && code === 'ENOENT')) return err;
  const known = UNAVAILABLE[code];
  if (!known) return err;
  const message = `${known}${AFTERMATH[during]}`;
  return new StorageUnavailableError(code, message, { cause: err });
}
