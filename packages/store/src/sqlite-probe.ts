import { type Stats, statSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import type { StorageHealth } from './sqlite-open.ts';
import { fromSqliteError, StoreUnavailableError } from './store-errors.ts';

/** Readiness polls often: the write probe runs at most this often. */
const PROBE_EVERY_MS = 2000;
/** Less free space than this (a few writes' worth of WAL frames) on the file's filesystem: not ready. */
export const MIN_FREE_BYTES = 64 * 1024;
/** Once full (a write failed with SQLITE_FULL, or the check above), ready again only with this much free. */
export const RESUME_FREE_BYTES = 1024 * 1024;

const FULL_MESSAGE = 'Storage is full: the change was not saved';
/** Writes look at the file at most this often (one stat call). */
const FILE_CHECK_EVERY_MS = 1000;
const GONE_MESSAGE = 'Storage file was removed or replaced while the service ran: the change was not saved';

export interface WriteProbeOptions {
  /** Bytes an unprivileged process may still use on the filesystem holding `dir` (tests replace it). */
  freeBytes?: (dir: string) => Promise<number>;
}

/** `bavail`: root with CAP_SYS_RESOURCE may also use ext4's reserve, so for it /ready turns 503 a bit early. */
async function statfsFreeBytes(dir: string): Promise<number> {
  const s = await statfs(dir);
  return s.bavail * s.bsize;
}

/**
 * Whether the store can take writes, for /ready. A read alone says nothing about a full disk or
 * a read-only file, so the probe writes: one committed row (a read-only file fails it) and one
 * page-sized insert that is rolled back (a database at its size limit, `max_page_count`, fails
 * it). Neither sees a full disk: the rolled-back pages never leave the page cache, and the
 * committed row is one WAL frame that lands in the WAL space a failed transaction already wrote
 * past its last commit (SQLite reuses it), so it kept succeeding on a full disk for as many
 * probes as that space held frames (a failed createMany leaves megabytes).
 *
 * So the disk is read from the filesystem: `statfs` on the directory of the file and its WAL is
 * one cheap call, takes no lock, sees what every process sharing the file sees and shows space
 * freed at once. A committed page-sized blob (the same WAL space absorbs it, however large, and
 * it grows the WAL on every probe) or a checkpoint (copies up to 40 MB of WAL and fsyncs) could
 * not tell as cheaply. Below MIN_FREE_BYTES the store is not ready; once full (that, or a write
 * that failed with SQLITE_FULL) it stays not ready until RESUME_FREE_BYTES are free and the write
 * probe passes, or a write succeeds: no flapping while a few frames come and go, and a service
 * that gets no traffic while not ready still comes back by itself. Other failing writes mark the
 * store unwritable at once; the next probe or successful write clears them.
 *
 * The size cap (SQLITE_MAX_SIZE_MB) is measured the same way, from the file's page counts, with
 * the margins scaled down for a small cap (an eighth and a quarter of it): the rolled-back insert
 * alone said "ready" whenever its few pages still fit under the cap though the write that failed
 * needed more (an offer whose text index merges segments), so the service took traffic it could
 * not store.
 */
export function createWriteProbe(
  db: DatabaseSync,
  options: WriteProbeOptions = {},
): StorageHealth & { check(): Promise<boolean>; refusal(): StoreUnavailableError | null } {
  const freeBytes = options.freeBytes ?? statfsFreeBytes;
  // The absolute path SQLite opened ('' for :memory: and temporary databases: no disk to watch).
  const file = String(db.prepare('PRAGMA database_list').all()[0]?.file ?? '');
  const dir = file === '' ? null : dirname(file);
  let lastFailure: StoreUnavailableError | null = null;
  let failures = 0;
  let checkedAt = 0;
  let created = false;
  /**
   * The file as opened. Deleted (DATA_DIR removed) or replaced under a running service, SQLite
   * keeps writing to the open, unlinked file: every write "succeeds" and is gone at the restart.
   * So while the path does not lead to the file opened, the store is not ready and refuses writes
   * (503); only that file coming back (a directory renamed back) or a restart ends it.
   */
  const seen = file === '' ? null : identityOf(file);
  const opened = seen === 'unknown' ? null : seen;
  let gone: StoreUnavailableError | null = null;
  let fileCheckedAt = Date.now();
  const fileGone = (): StoreUnavailableError | null => {
    if (opened === null) return null;
    fileCheckedAt = Date.now();
    const now = identityOf(file);
    // A stat that fails for another reason (EACCES, EIO, a stale mount) changes nothing.
    if (now === 'unknown') return gone;
    const same = now !== null && now.dev === opened.dev && now.ino === opened.ino;
    gone = same
      ? null
      : new StoreUnavailableError('SQLITE_CANTOPEN', GONE_MESSAGE, {
          cause: new Error(`${file} is ${now === null ? 'gone' : 'another file'}`),
        });
    return gone;
  };

  /** Why there is not room enough for writes (null when there is): the filesystem, then the size cap. */
  const shortOfRoom = async (full: boolean): Promise<string | null> => {
    if (dir !== null) {
      // A filesystem that cannot say (statfs unsupported) leaves the answer to the write probe.
      const free = await freeBytes(dir).catch(() => Number.POSITIVE_INFINITY);
      if (free < (full ? RESUME_FREE_BYTES : MIN_FREE_BYTES))
        return `${free} bytes free on the filesystem of ${file}`;
    }
    if (!db.isOpen) return null;
    const { room, cap } = roomUnderCap(db);
    const needed = full ? Math.min(RESUME_FREE_BYTES, cap / 4) : Math.min(MIN_FREE_BYTES, cap / 8);
    return room < needed
      ? `${room} bytes left under the size cap (SQLITE_MAX_SIZE_MB) of ${file || 'the database'}`
      : null;
  };

  const probe = (): void => {
    if (!created) {
      db.exec('CREATE TABLE IF NOT EXISTS _hs_probe (id INTEGER PRIMARY KEY, at INTEGER, pad BLOB)');
      created = true;
    }
    db.prepare('INSERT OR REPLACE INTO _hs_probe (id, at, pad) VALUES (1, ?, NULL)').run(Date.now());
    db.exec('BEGIN IMMEDIATE');
    try {
      db.prepare('INSERT OR REPLACE INTO _hs_probe (id, at, pad) VALUES (2, ?, randomblob(16384))').run(
        Date.now(),
      );
    } finally {
      if (db.isTransaction) db.exec('ROLLBACK');
    }
  };

  return {
    refusal() {
      if (Date.now() - fileCheckedAt < FILE_CHECK_EVERY_MS) return gone;
      return fileGone();
    },
    failed(err) {
      lastFailure = err;
      failures++;
      checkedAt = 0; // the next /ready probes again instead of trusting a cached success
    },
    succeeded() {
      if (lastFailure === null) return;
      lastFailure = null;
      checkedAt = 0; // a small write may fit where the probe's did: the next /ready looks at the disk again
    },
    async check() {
      if (!db.isOpen || fileGone()) return false;
      if (Date.now() - checkedAt < PROBE_EVERY_MS) return lastFailure === null;
      checkedAt = Date.now();
      const full = lastFailure?.code === 'SQLITE_FULL';
      const seen = failures;
      const short = await shortOfRoom(full);
      // A write failed meanwhile: its verdict stands until the next probe.
      if (failures !== seen || !db.isOpen) return false;
      if (short !== null) {
        if (!full)
          lastFailure = new StoreUnavailableError('SQLITE_FULL', FULL_MESSAGE, { cause: new Error(short) });
        return false;
      }
      try {
        probe();
        lastFailure = null;
      } catch (err) {
        const mapped = fromSqliteError(err);
        lastFailure =
          mapped instanceof StoreUnavailableError
            ? mapped
            : new StoreUnavailableError('SQLITE_ERROR', 'Storage failed its write probe', { cause: err });
      }
      return lastFailure === null;
    },
  };
}

/**
 * Bytes the database may still take under its size cap (`max_page_count`, set from
 * SQLITE_MAX_SIZE_MB): pages never used plus pages on the free list. Without a cap both are
 * about 17 TB. A pragma that fails leaves the answer to the write probe.
 */
function roomUnderCap(db: DatabaseSync): { room: number; cap: number } {
  try {
    const pragma = (name: string) => Number(Object.values(db.prepare(`PRAGMA ${name}`).get() ?? {})[0]);
    const pageSize = pragma('page_size');
    const maxPages = pragma('max_page_count');
    const room = (maxPages - pragma('page_count') + pragma('freelist_count')) * pageSize;
    if (Number.isFinite(room)) return { room, cap: maxPages * pageSize };
  } catch {
    // fall through
  }
  return { room: Number.POSITIVE_INFINITY, cap: Number.POSITIVE_INFINITY };
}

/** The file's identity; null when it no longer exists; 'unknown' when it can't be told now. */
function identityOf(file: string): Pick<Stats, 'dev' | 'ino'> | null | 'unknown' {
  try {
    const { dev, ino } = statSync(file);
    return { dev, ino };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? null : 'unknown';
  }
}
