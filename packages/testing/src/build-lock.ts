import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './processes.ts';

const WAIT_MS = 200;
const GIVE_UP_MS = 10 * 60_000;

/** One lock per checkout: two clones on one machine build their own `dist/` folders. */
const lockDir = join(
  tmpdir(),
  `hs-build-lock-${createHash('sha256').update(REPO_ROOT).digest('hex').slice(0, 12)}`,
);

function holderAlive(): boolean {
  try {
    const pid = Number(readFileSync(join(lockDir, 'pid'), 'utf8'));
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // No pid file yet (the holder is between mkdir and write) counts as alive; a gone process not.
    return (
      (err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'EPERM'
    );
  }
}

/**
 * Runs `fn` while no other test process rebuilds or runs the repository's `services/<name>/dist`
 * (`pnpm build` empties each folder before writing it). With one test worker per core, the
 * production-install and bench tests ran side by side on machines with more than two cores, and
 * one could start a service from a folder the other was rewriting.
 */
export async function withRepoBuild<T>(fn: () => Promise<T> | T): Promise<T> {
  const deadline = Date.now() + GIVE_UP_MS;
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(join(lockDir, 'pid'), String(process.pid));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      // A holder that died (a killed test run) leaves the folder behind: take it over.
      if (!holderAlive()) rmSync(lockDir, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`${lockDir} held for ${GIVE_UP_MS / 60_000} minutes`);
      else await new Promise((r) => setTimeout(r, WAIT_MS));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}
