/** SQLite result codes (the primary code, `errcode & 0xff`) that mean the storage cannot serve the request now. */
const UNUSABLE: Record<number, { code: string; message: string }> = {
  // Another process holds the file's lock (a backup, an `sqlite3` shell left in a transaction)
  // past the busy timeout: nothing was written, and a retry may find it free.
  5: {
    code: 'SQLITE_BUSY',
    message: 'Storage is busy (another process holds its lock): the change was not saved',
  },
  6: { code: 'SQLITE_LOCKED', message: 'Storage is locked: the change was not saved' },
  8: { code: 'SQLITE_READONLY', message: 'Storage is read-only: the change was not saved' },
  10: { code: 'SQLITE_IOERR', message: 'Storage could not be read or written' },
  11: { code: 'SQLITE_CORRUPT', message: 'Storage is damaged: the request could not be completed' },
  13: { code: 'SQLITE_FULL', message: 'Storage is full: the change was not saved' },
  14: { code: 'SQLITE_CANTOPEN', message: 'Storage could not be opened' },
  26: { code: 'SQLITE_NOTADB', message: 'Storage is damaged: the request could not be completed' },
};

/**
 * The store cannot serve the request because of the storage underneath (disk full, read-only,
 * damaged): a 503 for the client, with the original SQLite error kept as `cause` for the logs.
 */
export class StoreUnavailableError extends Error {
  readonly code: string;
  /** A change that timed out: it may still land, so nothing may be undone on its account. */
  readonly outcomeUnknown: boolean;
  constructor(code: string, message: string, options?: { cause?: unknown; outcomeUnknown?: boolean }) {
    super(
      `${message} (${code}); try again later`,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = 'StoreUnavailableError';
    this.code = code;
    this.outcomeUnknown = options?.outcomeUnknown ?? false;
  }
}

/** The StoreUnavailableError an SQLite error stands for, or the error itself when it is another kind. */
export function fromSqliteError(err: unknown): unknown {
  const errcode = (err as { errcode?: unknown } | null)?.errcode;
  if (typeof errcode !== 'number') return err;
  const known = UNUSABLE[errcode & 0xff];
  return known ? new StoreUnavailableError(known.code, known.message, { cause: err }) : err;
}

/** A database file that fails its integrity check or cannot be opened: the process must not start. */
export class StoreUnusableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnusableError';
  }
}
