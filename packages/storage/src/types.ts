/**
 * Blob storage for images and artifact content. Two backends: `local` (files under
 * ARTIFACT_LOCAL_DIR, uploads through URLs signed with an HMAC and served by the owning service)
 * and `cloudstore` (Google Cloud Storage, V4 signed URLs). Keys are relative paths like
 * `households/h_1/items/item_1/img_1`.
 */
export interface ObjectInfo {
  key: string;
  size: number;
  contentType: string;
  /** Hex SHA-256 of the bytes when the backend can tell (local always; cloudstore from metadata or md5 fallback). */
  sha256: string | null;
  updatedAt: string;
}

export interface SignedUpload {
  url: string;
  method: 'PUT';
  /** Headers the client must send with the PUT (content type, for cloudstore the signed headers). */
  headers: Record<string, string>;
  expiresAt: string;
}

export interface SignUploadOptions {
  contentType: string;
  /** Largest accepted body. Local enforces it on PUT; cloudstore through x-goog-content-length-range. */
  maxBytes: number;
  expiresInSeconds: number;
}

export interface BlobStorage {
  readonly backend: 'local' | 'cloudstore';
  put(key: string, bytes: Uint8Array, contentType: string): Promise<ObjectInfo>;
  get(key: string): Promise<{ bytes: Uint8Array; info: ObjectInfo } | null>;
  stat(key: string): Promise<ObjectInfo | null>;
  delete(key: string): Promise<void>;
  signUpload(key: string, options: SignUploadOptions): Promise<SignedUpload>;
  /** A reference a peer can resolve: `gs://bucket/key` for cloudstore, `local://key` for local. */
  refFor(key: string): string;
}
