// Directories a service writes to (DATA_DIR, the local blob store). Never `mkdir(path, { recursive: true })` here: Node's
// recursive mkdir steps back to the parent on ENOENT and forward again when the parent exists,
// so where a parent exists but cannot hold children (any path under /proc, a dangling symlink
// to an unmounted volume) it loops forever inside a libuv worker thread. The promise never
// settles (an upload PUT under such an ARTIFACT_LOCAL_DIR hung with no answer), the thread
// spins at 100% CPU, and four such requests take every worker thread, stalling all file I/O.
import { randomBytes } from 'node:crypto';
import { accessSync, constants, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

/** An error's errno code (ENOENT, EACCES, ...), else its message: what a one-line refusal names. */
export const errnoOf = (err: unknown): string =>
  (err as NodeJS.ErrnoException | null)?.code ?? (err as Error | null)?.message ?? String(err);

/**
 * `mkdir -p` that always settles: each missing parent is made once, then the child is tried
 * once more; an ENOENT after its parent exists is final (thrown), never retried.
 */
export async function ensureDir(path: string): Promise<void> {
  try {
    await mkdir(path);
    return;
  } catch (err) {
    if (errnoOf(err) === 'EEXIST') return;
    if (errnoOf(err) !== 'ENOENT' || dirname(path) === path) throw err;
  }
  await ensureDir(dirname(path));
  try {
    await mkdir(path);
  } catch (err) {
    if (errnoOf(err) !== 'EEXIST') throw err;
  }
}

/** ensureDir, synchronously (the boot check). */
export function ensureDirSync(path: string): void {
  try {
    mkdirSync(path);
    return;
  } catch (err) {
    if (errnoOf(err) === 'EEXIST') return;
    if (errnoOf(err) !== 'ENOENT' || dirname(path) === path) throw err;
  }
  ensureDirSync(dirname(path));
  try {
    mkdirSync(path);
  } catch (err) {
    if (errnoOf(err) !== 'EEXIST') throw err;
  }
}

/** A full disk may free up: at boot it is not a reason to refuse the directory. */
const MAY_FREE_UP = new Set(['ENOSPC', 'EDQUOT']);

/**
 * Why `dir` cannot be a directory the service writes to, or null when it can: it must exist or
 * be creatable, be a directory, and take a file (created and removed again). A full disk passes:
 * writes answer 503 until space frees up.
 */
export function writableDirProblem(dir: string): string | null {
  const root = resolve(dir);
  try {
    ensureDirSync(root);
  } catch (err) {
    if (MAY_FREE_UP.has(errnoOf(err))) return null;
    return `does not exist and cannot be created (${errnoOf(err)})`;
  }
  try {
    if (!statSync(root).isDirectory()) return 'is not a directory';
  } catch (err) {
    // A dangling symlink: mkdir saw something there, yet nothing can be found through it.
    return `does not exist and cannot be created (${errnoOf(err)})`;
  }
  try {
    accessSync(root, constants.W_OK | constants.X_OK);
    const probe = join(root, `.write-probe-${randomBytes(6).toString('hex')}`);
    writeFileSync(probe, '', { flag: 'wx' });
    rmSync(probe, { force: true });
    return null;
  } catch (err) {
    if (MAY_FREE_UP.has(errnoOf(err))) return null;
    return `is not writable (${errnoOf(err)})`;
  }
}
