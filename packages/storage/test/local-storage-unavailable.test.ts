// The local backend on a directory it cannot write (no fault injection here): every write
// settles promptly with StorageUnavailableError, and leaves nothing behind.
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalStorage, StorageUnavailableError } from '../src/index.ts';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const local = (dir: string) =>
  createLocalStorage({
    backend: 'local',
    dir,
    signingSecret: 'test-secret',
    publicBaseUrl: 'http://127.0.0.1:1',
  });

/** The promise's outcome, or a failure naming the hang when it has not settled within `ms`. */
function settled<T>(promise: Promise<T>, ms = 2000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still pending after ${ms} ms`)), ms);
  });
  return Promise.race([promise, hang]).finally(() => clearTimeout(timer));
}

const isRoot = process.getuid?.() === 0;

describe('local storage under /proc (a directory nothing can be created in, even by root)', () => {
  const storage = local('/proc/nope/artifacts');

  it('an upload settles promptly with 503 and its body is released', async () => {
    // A body that is still arriving: the storage fails before reading it and must let it go.
    const body = new PassThrough();
    body.write(PNG.subarray(0, 20));
    const error = await settled(
      storage.receiveUpload('households/h_1/items/item_1/img_1', body, {
        contentType: 'image/png',
        maxBytes: 1024,
      }),
    ).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(StorageUnavailableError);
    expect(error).toMatchObject({
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
      errno: 'ENOENT',
      message:
        'Blob storage directory is missing and cannot be created: nothing was saved (ENOENT); try again later',
    });
    expect(body.destroyed).toBe(true);
  });

  it('put, stat, get and delete settle too', async () => {
    await expect(settled(storage.put('households/h_1/a.png', PNG, 'image/png'))).rejects.toMatchObject({
      name: 'StorageUnavailableError',
      errno: 'ENOENT',
    });
    await expect(settled(storage.stat('households/h_1/a.png'))).resolves.toBeNull();
    await expect(settled(storage.get('households/h_1/a.png'))).resolves.toBeNull();
    await expect(settled(storage.delete('households/h_1/a.png'))).resolves.toBeUndefined();
  });
});

// chmod does not stop root (the fault-injection suite covers EROFS/ENOSPC there).
describe.skipIf(isRoot)('local storage on a read-only directory (chmod 0555)', () => {
  let dir = '';
  const storage = () => local(dir);
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'storage-readonly-'));
    chmodSync(dir, 0o555);
  });
  afterAll(() => {
    chmodSync(dir, 0o755);
    rmSync(dir, { recursive: true, force: true });
  });

  it('an upload answers 503 "not writable" and leaves no file', async () => {
    const body = new PassThrough();
    body.end(PNG);
    await expect(
      settled(
        storage().receiveUpload('households/h_1/img', body, { contentType: 'image/png', maxBytes: 1024 }),
      ),
    ).rejects.toMatchObject({ status: 503, errno: 'EACCES', message: expect.stringMatching(/not writable/) });
    expect(readdirSync(dir)).toEqual([]);
  });
});
