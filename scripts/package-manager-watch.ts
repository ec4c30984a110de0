// Which package manager started this process (npm, pnpm, yarn: an ancestor, not always the
// parent), and a watch that tells when it is gone. Linux only (/proc); elsewhere nothing is watched.
import { readFileSync } from 'node:fs';

const PACKAGE_MANAGERS = new Set([
  'npm',
  'npm-cli.js',
  'npx',
  'npx-cli.js',
  'pnpm',
  'pnpm.cjs',
  'pnpm.js',
  'yarn',
  'yarn.js',
]);
function parentOf(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
  } catch {
    return 0;
  }
}
function isPackageManager(pid: number): boolean {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    // npm sets its process title: its command line is then the one string "npm run stack".
    const words = args.slice(0, 3).flatMap((arg) => arg.split(' ').slice(0, 1));
    return words.some((word) => PACKAGE_MANAGERS.has(word.split('/').at(-1) ?? ''));
  } catch {
    return false;
  }
}
/** Our ancestors up to the nearest package manager (none: empty). */
export function chainToPackageManager(): number[] {
  const chain: number[] = [];
  for (let pid = process.ppid; pid > 1 && chain.length < 8; pid = parentOf(pid)) {
    chain.push(pid);
    if (isPackageManager(pid)) return chain;
  }
  return [];
}
const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Calls `gone` (once a second at most, until the process ends) when a process between us and the
 * package manager that started us, or the package manager itself, has ended. No package manager
 * among our ancestors: nothing is watched.
 */
export function whenPackageManagerGone(gone: () => void): void {
  const watched = chainToPackageManager();
  if (watched.length === 0) return;
  setInterval(() => {
    if (!watched.every(isAlive)) gone();
  }, 1000).unref();
}
