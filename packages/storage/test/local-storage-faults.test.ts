// The local backend when the file system fails under it (disk full, read-only): the failure is
// StorageUnavailableError (503 SERVICE_UNAVAILABLE naming the cause) and nothing is left half
// written, so the same upload can be tried again. Root ignores chmod, so the failures are
// injected into the fs functions the backend uses.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { AppError } from '@hs/service-kit';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createLocalStorage, fromFsError, StorageUnavailableError } from '../src/index.ts';

const fault = vi.hoisted(() => ({
  /** Fails the first write to a file stream, after its first chunk reached the disk. */
  stream: null as string | null,
  /** Fails writeFile. */
  writeFile: null as string | null,
  /** Fails rename. */
  rename: null as string | null,
}));

const errno = (code: string, syscall: string) =>
  Object.assign(new Error(`${code}: injected, ${syscall}`), { code, syscall, errno: -1 });

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const createWriteStream = ((...args: Parameters<typeof real.createWriteStream>) => {
    const stream = real.createWriteStream(...args);
    const code = fault.stream;
    if (!code) return stream;
    // The first bytes reach the disk, then the disk is full: a partial file is left to clean up.
    const full = (done: (err?: Error | null) => void) => (err?: Error | null) =>
      done(err ?? errno(code, 'write'));
    const write = stream._write.bind(stream);
    const writev = stream._writev?.bind(stream);
    stream._write = (chunk, encoding, done) => write(chunk, encoding, full(done));
    if (writev) stream._writev = (chunks, done) => writev(chunks.slice(0, 1), full(done));
    return stream;
  }) as typeof real.createWriteStream;
  return { ...real, default: { ...real, createWriteStream }, createWriteStream };
});

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const writeFile = ((...args: Parameters<typeof real.writeFile>) =>
    fault.writeFile
      ? Promise.reject(errno(fault.writeFile, 'open'))
      : real.writeFile(...args)) as typeof real.writeFile;
  const rename = ((...args: Parameters<typeof real.rename>) =>
    fault.rename
      ? Promise.reject(errno(fault.rename, 'rename'))
      : real.rename(...args)) as typeof real.rename;
  return { ...real, default: { ...real, writeFile, rename }, writeFile, rename };
});

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
/** A body in three chunks, so a write can fail after part of it reached the disk. */
const body = () => Readable.from([PNG.subarray(0, 20), PNG.subarray(20, 40), PNG.subarray(40)]);
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => !e.isDirectory())
    .map((e) => join(e.parentPath, e.name));

const dir = mkdtempSync(join(tmpdir(), 'storage-faults-'));
const storage = createLocalStorage({
  backend: 'local',
  dir,
  signingSecret: 'test-signing-secret',
  publicBaseUrl: 'http://127.0.0.1:1',
});
const upload = (key: string) =>
  storage.receiveUpload(key, body(), { contentType: 'image/png', maxBytes: 1024 });

afterEach(() => {
  fault.stream = null;
  fault.writeFile = null;
  fault.rename = null;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('local storage on a failing file system', () => {
  it('a disk that fills up mid-upload: 503 "Blob storage is full", no partial file, the retry works', async () => {
    const key = 'households/h_1/items/item_1/img_full';
    fault.stream = 'ENOSPC';
    const error = await upload(key).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(StorageUnavailableError);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
      errno: 'ENOSPC',
      message: 'Blob storage is full: nothing was saved (ENOSPC); try again later',
    });
    expect((error as Error).cause).toMatchObject({ code: 'ENOSPC' });
    expect(filesUnder(dir)).toEqual([]);
    expect(await storage.stat(key)).toBeNull();

    fault.stream = null;
    await expect(upload(key)).resolves.toMatchObject({ size: PNG.length });
    expect(Buffer.from((await storage.get(key))!.bytes).equals(PNG)).toBe(true);
  });

  it('read-only once the bytes are in place: the bytes are taken back, so the upload may be retried', async () => {
    const key = 'households/h_1/items/item_1/img_ro';
    fault.rename = 'EROFS';
    await expect(upload(key)).rejects.toMatchObject({
      name: 'StorageUnavailableError',
      status: 503,
      message: 'Blob storage is read-only (not writable): nothing was saved (EROFS); try again later',
    });
    // No object without its description, which would refuse every retry as already uploaded.
    expect(filesUnder(dir).filter((f) => f.includes('img_ro'))).toEqual([]);
    expect(filesUnder(join(dir, '.tmp'))).toEqual([]);

    fault.rename = null;
    await expect(upload(key)).resolves.toMatchObject({ size: PNG.length });
  });

  it('put: a write refused for a full disk or quota answers 503 and stores nothing', async () => {
    for (const code of ['ENOSPC', 'EDQUOT']) {
      fault.writeFile = code;
      const key = `households/h_1/cartprep/job_${code}.png`;
      await expect(storage.put(key, PNG, 'image/png')).rejects.toMatchObject({ errno: code, status: 503 });
      expect(await storage.stat(key)).toBeNull();
    }
    expect(filesUnder(join(dir, '.tmp'))).toEqual([]);
  });
});

describe('fromFsError', () => {
  const cases: [string, string][] = [
    ['ENOSPC', 'Blob storage is full'],
    ['EDQUOT', 'Blob storage is over its disk quota'],
    ['EROFS', 'Blob storage is read-only (not writable)'],
    ['EACCES', 'Blob storage is not writable (permission denied)'],
    ['EPERM', 'Blob storage is not writable (operation not permitted)'],
    ['EIO', 'Blob storage could not be read or written (I/O error)'],
    ['ENOENT', 'Blob storage directory is missing and cannot be created'],
  ];
  it.each(cases)('%s on a write is StorageUnavailableError: %s', (code, cause) => {
    const err = fromFsError(errno(code, 'open'), 'write');
    expect(err).toBeInstanceOf(StorageUnavailableError);
    expect((err as Error).message).toBe(`${cause}: nothing was saved (${code}); try again later`);
  });

  it('leaves other errors, and ENOENT on a read (no such object), as they are', () => {
    const missing = errno('ENOENT', 'open');
    expect(fromFsError(missing, 'read')).toBe(missing);
    const reset = errno('ECONNRESET', 'read');
    expect(fromFsError(reset, 'write')).toBe(reset);
    const plain = new Error('Upload was aborted');
    expect(fromFsError(plain, 'write')).toBe(plain);
    expect(fromFsError(errno('EIO', 'read'), 'read')).toMatchObject({
      message: 'Blob storage could not be read or written (I/O error) (EIO); try again later',
    });
  });
});
