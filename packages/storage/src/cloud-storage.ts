// The `cloudstore` backend: Google Cloud Storage through @google-cloud/storage
// (https://cloud.google.com/storage/docs/json_api). Uploads go straight to Cloud Storage with
// V4 signed URLs (https://cloud.google.com/storage/docs/access-control/signed-urls), which the
// client library computes locally from the service account's key.
import { createHash } from 'node:crypto';
import { Storage, type StorageOptions } from '@google-cloud/storage';
import { assertKey } from './keys.ts';
import { objectInfoOf } from './object-info.ts';
import type { BlobStorage, ObjectInfo, SignedUpload, SignUploadOptions } from './types.ts';

export interface CloudStorageConfig {
  backend: 'cloudstore';
  bucket: string;
  /** Another JSON API endpoint (tests: a local server); requests to it carry no auth. */
  apiEndpoint?: string;
  projectId?: string;
  /** Service-account key for signing; without it Application Default Credentials are used. */
  credentials?: { client_email: string; private_key: string };
}

type FileMetadata = {
  size?: string | number;
  contentType?: string;
  updated?: string;
  metadata?: Record<string, unknown> | null;
};

function isNotFound(err: unknown): boolean {
  return (err as { code?: number }).code === 404;
}

export function createCloudStorage(config: CloudStorageConfig): BlobStorage {
  const options: StorageOptions = {};
  if (config.apiEndpoint) options.apiEndpoint = config.apiEndpoint;
  if (config.projectId) options.projectId = config.projectId;
  if (config.credentials) options.credentials = config.credentials;
  const bucket = new Storage(options).bucket(config.bucket);

  const toInfo = (key: string, m: FileMetadata): ObjectInfo => ({
    key,
    size: Number(m.size ?? 0),
    contentType: m.contentType ?? 'application/octet-stream',
    // Our own writes record the SHA-256 in custom metadata; direct uploads through a signed URL
    // don't, and Cloud Storage itself only keeps MD5/CRC32C.
    sha256: typeof m.metadata?.sha256 === 'string' ? m.metadata.sha256 : null,
    updatedAt: m.updated ?? new Date().toISOString(),
  });

  async function stat(key: string): Promise<ObjectInfo | null> {
    try {
      const [metadata] = await bucket.file(assertKey(key)).getMetadata();
      return toInfo(key, metadata as FileMetadata);
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  return {
    backend: 'cloudstore',
    async put(key, bytes, contentType) {
      const written = objectInfoOf(key, bytes, contentType);
      await bucket.file(assertKey(key)).save(Buffer.from(bytes), {
        resumable: false,
        validation: 'md5',
        contentType,
        metadata: { contentType, metadata: { sha256: written.sha256 } },
      });
      return (await stat(key)) ?? written;
    },
    async get(key) {
      const info = await stat(key);
      if (!info) return null;
      try {
        const [bytes] = await bucket.file(key).download({ validation: false });
        return {
          bytes: new Uint8Array(bytes),
          info: info.sha256 ? info : { ...info, sha256: createHash('sha256').update(bytes).digest('hex') },
        };
      } catch (err) {
        if (isNotFound(err)) return null;
        throw err;
      }
    },
    stat,
    async delete(key) {
      await bucket.file(assertKey(key)).delete({ ignoreNotFound: true });
    },
    async signUpload(key: string, opts: SignUploadOptions): Promise<SignedUpload> {
      const expires = Date.now() + opts.expiresInSeconds * 1000;
      // Signed with the URL, so the client must send them: the size cap, and create-only (a
      // second PUT to the same URL is refused by Cloud Storage with 412 instead of overwriting
      // the first image, https://cloud.google.com/storage/docs/request-preconditions).
      const extensionHeaders = {
        'x-goog-content-length-range': `0,${opts.maxBytes}`,
        'x-goog-if-generation-match': '0',
      };
      const [url] = await bucket.file(assertKey(key)).getSignedUrl({
        version: 'v4',
        action: 'write',
        expires,
        contentType: opts.contentType,
        extensionHeaders,
      });
      return {
        url,
        method: 'PUT',
        headers: { 'content-type': opts.contentType, ...extensionHeaders },
        expiresAt: new Date(expires).toISOString(),
      };
    },
    refFor: (key) => `gs://${config.bucket}/${assertKey(key)}`,
  };
}
