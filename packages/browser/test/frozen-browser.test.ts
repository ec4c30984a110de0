// A Chromium frozen by SIGSTOP (as a fault-injection run or a deadlocked browser leaves it): the
// pool must neither wait on it for ever nor keep handing out sessions from it.
import { type DemoShop, startDemoShop } from '@hs/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAddressGuard } from '../src/address-guard.ts';
import { localChromiumPid } from '../src/local-chromium.ts';
import { type BrowserPool, BrowserUnresponsiveError, createBrowserPool } from '../src/session-pool.ts';

// Bounds opening a context and page only; the cold launch of the first open has its own limit.
// Generous: on a loaded machine (the whole suite beside it) a healthy open took over 3 s.
const OPEN_TIMEOUT_MS = 8000;
let shop: DemoShop;
let pool: BrowserPool;
const frozen: number[] = [];

beforeAll(async () => {
  shop = await startDemoShop();
  const guard = createAddressGuard({ allowPrivateHosts: [shop.host] });
  pool = createBrowserPool({ guard, maxSessions: 3, idleMs: 60_000, openTimeoutMs: OPEN_TIMEOUT_MS });
});

afterAll(async () => {
  // Thawed first, so a browser the pool failed to kill can still close.
  for (const pid of frozen) signalGroup(pid, 'SIGCONT');
  await pool?.closeAll();
  await shop?.close();
});

function signalGroup(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pid, signal);
  } catch {}
}

function freeze(browser: Browser): number {
  const pid = localChromiumPid(browser);
  expect(pid).toBeTypeOf('number');
  frozen.push(pid!);
  signalGroup(pid!, 'SIGSTOP');
  return pid!;
}

describe('a frozen local browser', () => {
  it('fails an open past the timeout, kills the frozen browser, and the next open starts a fresh one', async () => {
    const first = await pool.open('bs_before');
    const browser = first.context.browser()!;
    const pid = freeze(browser);

    const started = Date.now();
    await expect(pool.open('bs_frozen')).rejects.toBeInstanceOf(BrowserUnresponsiveError);
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(OPEN_TIMEOUT_MS - 50);
    expect(waited).toBeLessThan(OPEN_TIMEOUT_MS + 2000);

    // Killed, not merely abandoned: its process is gone and its sessions with it.
    await expect.poll(() => browser.isConnected(), { timeout: 5000 }).toBe(false);
    expect(localChromiumPid(browser)).toBeNull();
    expect(pool.size()).toBe(0);

    const fresh = await pool.open('bs_after');
    expect(localChromiumPid(fresh.context.browser()!)).not.toBe(pid);
    const response = await fresh.page.goto(`${shop.url}/`);
    expect(response?.status()).toBe(200);
    await pool.close('bs_after');
  }, 60_000);

  it('opens a session that was waiting on a browser killed meanwhile in a fresh browser', async () => {
    const first = await pool.open('bs_first');
    const pid = freeze(first.context.browser()!);
    const waiting = pool.open('bs_waiting');
    await new Promise((r) => setTimeout(r, 300));
    // As the pool does when another session's open or close finds the browser frozen.
    signalGroup(pid, 'SIGKILL');
    const session = await waiting;
    expect(localChromiumPid(session.context.browser()!)).not.toBe(pid);
    expect((await session.page.goto(`${shop.url}/`))?.status()).toBe(200);
    await pool.close('bs_waiting');
  }, 60_000);
});
