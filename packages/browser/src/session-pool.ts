// Browser sessions on one local Chromium: a fresh context (its own profile: cookies, storage,
// cache) per session, at most `maxSessions` at once, each closed on request, after `idleMs`
// without use, or when the pool closes. The browser starts with the first session and again
// after a crash.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { AddressGuard } from './address-guard.ts';
import { type GuardProxy, startGuardProxy } from './guard-proxy.ts';
import { launchLocalChromium } from './local-chromium.ts';

export class BrowserCapacityError extends Error {
  readonly retryAfterSeconds: number;
  constructor(max: number, retryAfterSeconds: number) {
    super(`All ${max} browser sessions are in use`);
    this.name = 'BrowserCapacityError';
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export type PooledSession = { id: string; context: BrowserContext; page: Page };

export type BrowserPoolOptions = {
  guard: AddressGuard;
  maxSessions: number;
  idleMs: number;
  executablePath?: string;
  viewport?: { width: number; height: number };
  onIdleClose?: (id: string) => void;
};

export function createBrowserPool(options: BrowserPoolOptions) {
  const sessions = new Map<string, { session: PooledSession; timer: NodeJS.Timeout }>();
  let starting: Promise<{ browser: Browser; proxy: GuardProxy }> | null = null;
  let reserved = 0;

  function start() {
    starting ??= (async () => {
      const proxy = await startGuardProxy(options.guard);
      try {
        const browser = await launchLocalChromium({
          proxyUrl: proxy.url,
          ...(options.executablePath ? { executablePath: options.executablePath } : {}),
        });
        browser.on('disconnected', () => {
          starting = null;
          void proxy.close();
        });
        return { browser, proxy };
      } catch (err) {
        starting = null;
        await proxy.close();
        throw err;
      }
    })();
    return starting;
  }

  function arm(id: string): NodeJS.Timeout {
    const timer = setTimeout(() => {
      options.onIdleClose?.(id);
      void close(id);
    }, options.idleMs);
    timer.unref();
    return timer;
  }

  async function close(id: string): Promise<void> {
    const entry = sessions.get(id);
    if (!entry) return;
    sessions.delete(id);
    clearTimeout(entry.timer);
    await entry.session.context.close().catch(() => {});
  }

  return {
    /** A new session; BrowserCapacityError when the cap is reached. */
    async open(id: string): Promise<PooledSession> {
      if (sessions.size + reserved >= options.maxSessions)
        throw new BrowserCapacityError(options.maxSessions, 30);
      reserved++;
      try {
        const { browser } = await start();
        const context = await browser.newContext({
          viewport: options.viewport ?? { width: 1280, height: 800 },
          serviceWorkers: 'block',
          acceptDownloads: false,
        });
        const page = await context.newPage();
        const session = { id, context, page };
        sessions.set(id, { session, timer: arm(id) });
        context.on('close', () => {
          const entry = sessions.get(id);
          if (entry?.session.context === context) {
            clearTimeout(entry.timer);
            sessions.delete(id);
          }
        });
        return session;
      } finally {
        reserved--;
      }
    },
    /** The live session (its idle clock restarted), or undefined when it is gone. */
    use(id: string): PooledSession | undefined {
      const entry = sessions.get(id);
      if (!entry) return undefined;
      clearTimeout(entry.timer);
      entry.timer = arm(id);
      return entry.session;
    },
    close,
    size: () => sessions.size,
    /** Every session and the browser itself (service shutdown). */
    async closeAll(): Promise<void> {
      await Promise.all([...sessions.keys()].map(close));
      const running = starting;
      starting = null;
      if (running) {
        const { browser, proxy } = await running.catch(() => ({ browser: null, proxy: null }));
        await browser?.close().catch(() => {});
        await proxy?.close();
      }
    },
  };
}

export type BrowserPool = ReturnType<typeof createBrowserPool>;
