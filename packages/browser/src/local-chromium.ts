// Debian's Chromium on this machine, driven over the DevTools protocol by playwright-core
// (https://playwright.dev/docs/api/class-browsertype#browser-type-launch). playwright talks to it
// over a pipe (--remote-debugging-pipe), so no debugging port is open and the browser ends when
// its pipe closes with the service. Each launch is tagged with the owning process id, so a boot
// can end the browsers a crashed predecessor left behind.
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';

export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';
const OWNER_FLAG = '--hs-browser-owner-pid=';
/** Names one launch, so its process can be found (and killed) when its pipe no longer answers. */
const LAUNCH_FLAG = '--hs-browser-launch=';
const launchTags = new WeakMap<Browser, string>();

/** The flags verified on these machines (headless, no sandbox inside containers, no phoning home). */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export type LocalChromiumOptions = {
  executablePath?: string;
  /** Every request goes through this proxy (the address guard); loopback included. */
  proxyUrl?: string;
  extraArgs?: string[];
  /** Longest wait for the browser to start (playwright's own default is 3 minutes). */
  timeoutMs?: number;
};

export async function launchLocalChromium(options: LocalChromiumOptions = {}): Promise<Browser> {
  const tag = randomUUID();
  const args = [
    ...CHROMIUM_FLAGS,
    `${OWNER_FLAG}${process.pid}`,
    `${LAUNCH_FLAG}${tag}`,
    ...(options.extraArgs ?? []),
  ];
  if (options.proxyUrl) args.push(`--proxy-server=${options.proxyUrl}`, '--proxy-bypass-list=<-loopback>');
  // Loaded on first launch: playwright-core costs a service ~50 MB that the default
  // (simulated) browser and cart-prep never need.
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: options.executablePath ?? DEFAULT_CHROMIUM_PATH,
    args,
    // Shutdown goes through the service kit, which closes the pool; these would race it.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}),
  });
  launchTags.set(browser, tag);
  return browser;
}

/** The process id of a browser launched here, or null when it has gone (or was not ours). */
export function localChromiumPid(browser: Browser): number | null {
  const tag = launchTags.get(browser);
  if (!tag) return null;
  // Its helpers (renderers, zygote: `--type=...`) may carry the flag too; the browser does not.
  const isBrowser = (args: string[]) =>
    args.includes(`${LAUNCH_FLAG}${tag}`) && !args.some((a) => a.startsWith('--type='));
  return findProcess(isBrowser)[0] ?? null;
}

/**
 * Ends a browser launched here at once, with all its processes. `browser.close()` waits for the
 * browser to answer and to exit, so a frozen (stopped, deadlocked) browser would hold it for ever;
 * playwright starts each browser as the leader of its own process group, which is killed whole.
 */
export function killLocalChromium(browser: Browser): boolean {
  const pid = localChromiumPid(browser);
  if (pid === null) return false;
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, 'SIGKILL');
    } catch {}
  }
  return true;
}

/** Process ids whose command line (its arguments) passes `match`. */
function findProcess(match: (args: string[]) => boolean): number[] {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return [];
  }
  return pids.map(Number).filter((pid) => {
    try {
      return match(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'));
    } catch {
      return false;
    }
  });
}

/**
 * Ends Chromium processes tagged by an owner that is no longer running (a crashed service's
 * browsers). Only our own tag is looked at; nothing else on the machine is touched.
 */
export function reapOrphanedChromium(): number {
  let reaped = 0;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return 0;
  }
  for (const pid of pids) {
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    const owner = cmdline.split('\0').find((a) => a.startsWith(OWNER_FLAG));
    if (!owner) continue;
    const ownerPid = Number(owner.slice(OWNER_FLAG.length));
    if (ownerPid === process.pid || isAlive(ownerPid)) continue;
    try {
      process.kill(Number(pid), 'SIGKILL');
      reaped++;
    } catch {}
  }
  return reaped;
}

/**
 * Whether a page can no longer be used: closed, or its browser gone (a crashed or killed browser
 * may not close its pages; it is no longer connected either way).
 */
export function pageIsGone(page: Page): boolean {
  return page.isClosed() || page.context().browser()?.isConnected() === false;
}

/**
 * The Chromium browser processes this process launched (their main processes, not their helpers,
 * not other processes' browsers): what a test kills to play a crashed browser.
 */
export function chromiumLaunchedHere(): number[] {
  return findProcess(
    (args) => args.includes(`${OWNER_FLAG}${process.pid}`) && !args.some((a) => a.startsWith('--type=')),
  );
}

/** Whether a process with this id runs (one of another user's counts: EPERM). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
