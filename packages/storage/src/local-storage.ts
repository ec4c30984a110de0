// The `local` backend: objects are files under one directory, metadata (content type,
// checksum) in a JSON file beside them under `.meta/`. Uploads come through URLs signed by
// this module and served by the owning service's upload route (see `receiveUpload`).
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { access, link, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertKey } from './keys.ts';
import { signedLocalUrl } from './local-signature.ts';
import { objectInfoOf } from './object-info.ts';
import type { BlobStorage, ObjectInfo, SignedUpload, SignUploadOptions } from './types.ts';
import { EmptyUploadError, UploadExistsError, UploadTooLargeError } from './upload-errors.ts';

export interface LocalStorageConfig {
  backend: 'local';
  dir: string;
  signingSecret: string;
  /** Where clients reach the upload route (the gateway in a deployment). */
  publicBaseUrl: string;
}

export interface LocalBlobStorage extends BlobStorage {
  readonly backend: 'local';
  /**
   * Stores a streamed upload: counts bytes as they arrive and aborts past `maxBytes`, writes to
   * a temporary file and links it into place only when complete, so a refused upload leaves
   * nothing behind. A key that already holds bytes is refused (UploadExistsError).
   */
  receiveUpload(
    key: string,
    body: Readable,
    options: { contentType: string; maxBytes: number },
  ): Promise<ObjectInfo>;
  /** A signed GET URL served by the same route, for reading an object without a bearer token. */
  signDownload(key: string, expiresInSeconds: number): { url: string; expiresAt: string };
}

export function createLocalStorage(config: LocalStorageConfig): LocalBlobStorage {
  const root = resolve(config.dir);
  const dataPath = (key: string) => join(root, assertKey(key));
  const metaPath = (key: string) => join(root, '.meta', `${assertKey(key)}.json`);
  const tmpPath = () => join(root, '.tmp', randomBytes(12).toString('hex'));

  async function commit(key: string, tmp: string, info: ObjectInfo): Promise<ObjectInfo> {
    await mkdir(dirname(dataPath(key)), { recursive: true });
    await mkdir(dirname(metaPath(key)), { recursive: true });
    // Metadata first: a reader that finds the bytes always finds their description.
    const metaTmp = `${tmp}.meta`;
    await writeFile(metaTmp, JSON.stringify(info));
    await rename(metaTmp, metaPath(key));
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
      throw err;
    }
  }

  return {
    backend: 'local',
    async put(key, bytes, contentType) {
      assertKey(key);
      const tmp = tmpPath();
      await mkdir(dirname(tmp), { recursive: true });
      await writeFile(tmp, bytes);
      return commit(key, tmp, objectInfoOf(key, bytes, contentType));
    },
    async get(key) {
      const info = await stat(key);
      if (!info) return null;
      try {
        return { bytes: new Uint8Array(await readFile(dataPath(key))), info };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    stat,
    async delete(key) {
      await rm(dataPath(key), { force: true });
      await rm(metaPath(key), { force: true });
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
      await mkdir(dirname(tmp), { recursive: true });
      const hash = createHash('sha256');
      let size = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          if (size > maxBytes) return done(new UploadTooLargeError(maxBytes));
          hash.update(chunk);
          done(null, chunk);
        },
      });
      try {
        await pipeline(body, counter, createWriteStream(tmp));
        if (size === 0) throw new EmptyUploadError();
      } catch (err) {
        await rm(tmp, { force: true });
        throw err;
      }
      const info = {
        key,
        size,
        contentType,
        sha256: hash.digest('hex'),
        updatedAt: new Date().toISOString(),
      };
      // A signed URL takes one upload: the bytes are linked into place only if nothing is there
      // yet (atomic, so of two racing uploads exactly one wins), then described.
      await mkdir(dirname(dataPath(key)), { recursive: true });
      await mkdir(dirname(metaPath(key)), { recursive: true });
      try {
        await link(tmp, dataPath(key));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new UploadExistsError();
        throw err;
      } finally {
        await rm(tmp, { force: true });
      }
      const metaTmp = `${tmp}.meta`;
      await writeFile(metaTmp, JSON.stringify(info));
      await rename(metaTmp, metaPath(key));
      return info;
    },
  };
}
