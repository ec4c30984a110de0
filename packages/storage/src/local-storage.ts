// The `local` backend: objects are files under one directory, metadata (content type,
// checksum) in a JSON file beside them under `.meta/`. Uploads come through URLs signed by
// this module and served by the owning service's upload route (see `receiveUpload`).
// A file system failure (disk full, read-only, not writable) is a StorageUnavailableError (503),
// and a failed write leaves nothing behind: no temporary file, no object without metadata.

import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { access, link, readdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ensureDir } from '@hs/service-kit';
import { assertKey } from './keys.ts';
import { signedLocalUrl } from './local-signature.ts';
import { objectInfoOf } from './object-info.ts';
import { fromFsError } from './storage-errors.ts';
import type { BlobStorage, ObjectInfo, SignedUpload, SignUploadOptions } from './types.ts';
import { EmptyUploadError, UploadExistsError, UploadTooLargeError } from './upload-errors.ts';

export interface LocalStorageConfig {
  backend: 'local';
  dir: string;
  signingSecret: string;
  /** Where clients reach the upload route (the gateway in a deployment). */
  publicBaseUrl: string;
  /** Told what the start-up clean-up of abandoned upload files did (removeAbandonedWrites). */
  onAbandonedWrites?: (outcome: AbandonedWrites) => void;
}

/** What the clean-up of a crash's temporary files did: files removed, and files it could not remove. */
export type AbandonedWrites = { dir: string; removed: number; failed: number; bytes: number };

export interface LocalBlobStorage extends BlobStorage {
  readonly backend: 'local';
  /**
   * Stores a streamed upload: counts bytes as they arrive and aborts past `maxBytes`, writes to
   * a temporary file and links it into place only when complete, so a refused upload leaves
   * nothing behind. A key that already holds bytes is refused (UploadExistsError). Whatever
   * fails, the promise settles and `body` is destroyed if it was not read to its end; a file
   * system failure is a StorageUnavailableError.
   */
  receiveUpload(
    key: string,
    body: Readable,
    options: { contentType: string; maxBytes: number },
  ): Promise<ObjectInfo>;
  /** A signed GET URL served by the same route, for reading an object without a bearer token. */
  signDownload(key: string, expiresInSeconds: number): { url: string; expiresAt: string };
}

/**
 * A temporary file untouched this long belongs to a write that will never finish: its process
 * died mid-upload (an upload in progress touches its file with every chunk, and is cut long
 * before this by the request timeouts).
 */
export const ABANDONED_WRITE_MS = 3600_000;

/** Deletes the temporary files of writes cut off by a crash; says how many went and how many would not. */
export async function removeAbandonedWrites(dir: string, now = Date.now()): Promise<AbandonedWrites> {
  const tmpDir = join(resolve(dir), '.tmp');
  const outcome: AbandonedWrites = { dir: tmpDir, removed: 0, failed: 0, bytes: 0 };
  const names = await readdir(tmpDir).catch(() => [] as string[]);
  for (const name of names) {
    const path = join(tmpDir, name);
    const info = await stat(path).catch(() => null);
    if (!info?.isFile() || info.mtimeMs > now - ABANDONED_WRITE_MS) continue;
    try {
      // unlink, not rm: rm also resolves for a file another process removed meanwhile.
      await unlink(path);
      outcome.removed += 1;
      outcome.bytes += info.size;
    } catch (err) {
      // The services sharing the folder all clean it at start: another one got there first.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') outcome.failed += 1;
    }
  }
  return outcome;
}

export function createLocalStorage(config: LocalStorageConfig): LocalBlobStorage {
  const root = resolve(config.dir);
  // At each start, in the background: what a crash left is no one's, and no quota counts it.
  void removeAbandonedWrites(root).then(
    (outcome) => config.onAbandonedWrites?.(outcome),
    () => {},
  );
  const dataPath = (key: string) => join(root, assertKey(key));
  const metaPath = (key: string) => join(root, '.meta', `${assertKey(key)}.json`);
  const tmpPath = () => join(root, '.tmp', randomBytes(12).toString('hex'));
  /** Cleanup after a failure must not hide the failure (it may fail the same way). */
  const discard = (path: string) => rm(path, { force: true }).catch(() => undefined);

  async function commit(key: string, tmp: string, info: ObjectInfo): Promise<ObjectInfo> {
    await ensureDir(dirname(dataPath(key)));
    await ensureDir(dirname(metaPath(key)));
    // Metadata first: a reader that finds the bytes always finds their description.
    const metaTmp = `${tmp}.meta`;
    try {
      await writeFile(metaTmp, JSON.stringify(info));
      await rename(metaTmp, metaPath(key));
    } finally {
      await discard(metaTmp);
    }
    await rename(tmp, dataPath(key));
    return info;
  }

  async function stat(key: string): Promise<ObjectInfo | null> {
    try {
      const info = JSON.parse(await readFile(metaPath(key), 'utf8')) as ObjectInfo;
      await access(dataPath(key));
      return info;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw fromFsError(err, 'read');
    }
  }

  return {
    backend: 'local',
    async put(key, bytes, contentType) {
      assertKey(key);
      const tmp = tmpPath();
      try {
        await ensureDir(dirname(tmp));
        await writeFile(tmp, bytes, { flag: 'wx' });
        return await commit(key, tmp, objectInfoOf(key, bytes, contentType));
      } catch (err) {
        throw fromFsError(err, 'write');
      } finally {
        await discard(tmp);
      }
    },
    async get(key) {
      const info = await stat(key);
      if (!info) return null;
      try {
        return { bytes: new Uint8Array(await readFile(dataPath(key))), info };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw fromFsError(err, 'read');
      }
    },
    stat,
    async delete(key) {
      try {
        await rm(dataPath(key), { force: true });
        await rm(metaPath(key), { force: true });
      } catch (err) {
        throw fromFsError(err, 'delete');
      }
    },
    async signUpload(key: string, options: SignUploadOptions): Promise<SignedUpload> {
      assertKey(key);
      const expires = Math.floor(Date.now() / 1000) + options.expiresInSeconds;
      const url = signedLocalUrl(config.publicBaseUrl, config.signingSecret, {
        method: 'PUT',
        key,
        contentType: options.contentType,
        maxBytes: options.maxBytes,
        expires,
      });
      return {
        url,
        method: 'PUT',
        headers: { 'content-type': options.contentType },
        expiresAt: new Date(expires * 1000).toISOString(),
      };
    },
    signDownload(key, expiresInSeconds) {
      assertKey(key);
      const expires = Math.floor(Date.now() / 1000) + expiresInSeconds;
      const url = signedLocalUrl(config.publicBaseUrl, config.signingSecret, {
        method: 'GET',
        key,
        contentType: '',
        maxBytes: 0,
        expires,
      });
      return { url, expiresAt: new Date(expires * 1000).toISOString() };
    },
    refFor: (key) => `local://${assertKey(key)}`,
    async receiveUpload(key, body, { contentType, maxBytes }) {
      assertKey(key);
      const tmp = tmpPath();
      const metaTmp = `${tmp}.meta`;
      const hash = createHash('sha256');
      let size = 0;
      let linked = false;
      const counter = new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          if (size > maxBytes) return done(new UploadTooLargeError(maxBytes));
          hash.update(chunk);
          done(null, chunk);
        },
      });
      try {
        await ensureDir(dirname(tmp));
        // Settles on an error of any of the three streams (an open or write failure of the
        // file, the byte limit, the client going away), destroying the other two.
        await pipeline(body, counter, createWriteStream(tmp, { flags: 'wx' }));
        if (size === 0) throw new EmptyUploadError();
        const info = {
          key,
          size,
          contentType,
          sha256: hash.digest('hex'),
          updatedAt: new Date().toISOString(),
        };
        await ensureDir(dirname(dataPath(key)));
        await ensureDir(dirname(metaPath(key)));
        // The description is written before the bytes are placed, so that after the link only a
        // rename is left to fail, and then the link is undone: bytes left without a description
        // would refuse every retry of the upload as already received (UploadExistsError).
        await writeFile(metaTmp, JSON.stringify(info), { flag: 'wx' });
        // A signed URL takes one upload: the bytes are linked into place only if nothing is
        // there yet (atomic, so of two racing uploads exactly one wins), then described.
        try {
          await link(tmp, dataPath(key));
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new UploadExistsError();
          throw err;
        }
        linked = true;
        await rename(metaTmp, metaPath(key));
        return info;
      } catch (err) {
        // Failed before the body was read to its end (no directory, say): let it go. Left piped
        // into an unread stream, it would stall whoever drains the request to answer it.
        if (!body.readableEnded) body.destroy();
        // Ours (the link succeeded), so ours to take back: the upload may be tried again.
        if (linked) await discard(dataPath(key));
        throw fromFsError(err, 'write');
      } finally {
        await discard(tmp);
        await discard(metaTmp);
      }
    },
  };
}
