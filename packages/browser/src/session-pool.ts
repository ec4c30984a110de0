// Browser sessions on one local Chromium: a fresh context (its own profile: cookies, storage,
// cache) per session, at most `maxSessions` at once, each closed on request, after `idleMs`
// without use, or when the pool closes. The browser starts with the first session and again
// after a crash. A browser that does not open a session or close one within `openTimeoutMs`
// (or start within its launch timeout) is taken for frozen and killed, so the next session
// starts a fresh one.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { AddressGuard } from './address-guard.ts';
import { type GuardProxy, startGuardProxy } from './guard-proxy.ts';
import { killLocalChromium, launchLocalChromium } from './local-chromium.ts';

/** A healthy browser opens a context and page in milliseconds, a loaded machine in seconds. */
export const DEFAULT_OPEN_TIMEOUT_MS = 20_000;
/** A cold start takes longer on a loaded machine; playwright kills a launch that passes this. */
const LAUNCH_TIMEOUT_MS = 30_000;

export class BrowserCapacityError extends Error {
  readonly retryAfterSeconds: number;
  constructor(max: number, retryAfterSeconds: number) {
    super(`All ${max} browser sessions are in use`);
    this.name = 'BrowserCapacityError';
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** The browser did not answer in time; it has been killed and the next session starts a new one. */
export class BrowserUnresponsiveError extends Error {
  constructor(step: string, ms: number) {
    super(`The browser did not ${step} within ${ms} ms; it was ended`);
    this.name = 'BrowserUnresponsiveError';
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
  /** A session that ended without being closed: its browser crashed or was killed, its page crashed. */
  onLost?: (id: string) => void;
  /** Longest wait for the browser to open a session's context and page, or to close one. */
  openTimeoutMs?: number;
};

export function createBrowserPool(options: BrowserPoolOptions) {
  const sessions = new Map<string, { session: PooledSession; timer: NodeJS.Timeout }>();
  let starting: Promise<{ browser: Browser; proxy: GuardProxy }> | null = null;
  let reserved = 0;

  const timeoutMs = options.openTimeoutMs ?? DEFAULT_OPEN_TIMEOUT_MS;

  function start() {
    if (starting) return starting;
    let launch: Promise<{ browser: Browser; proxy: GuardProxy }> | null = null;
    launch = (async () => {
      const proxy = await startGuardProxy(options.guard);
      try {
        const browser = await launchLocalChromium({
          proxyUrl: proxy.url,
          timeoutMs: Math.max(LAUNCH_TIMEOUT_MS, timeoutMs),
          ...(options.executablePath ? { executablePath: options.executablePath } : {}),
        });
        browser.on('disconnected', () => {
          // Only this launch's own entry: a browser killed as frozen may disconnect after the
          // next one has started.
          if (starting === launch) starting = null;
          void proxy.close();
        });
        return { browser, proxy };
      } catch (err) {
        if (starting === launch) starting = null;
        await proxy.close();
        throw err;
      }
    })();
    starting = launch;
    return launch;
  }

  /**
   * Kills the current browser (it did not answer): every session in it ends with it, and the next
   * session launches a fresh one. A launch still under way is killed when it completes.
   */
  function endUnresponsive(): void {
    const launch = starting;
    starting = null;
    void launch?.then(
      ({ browser, proxy }) => {
        killLocalChromium(browser);
        void proxy.close();
      },
      () => {},
    );
  }

  /**
   * `work` within the pool's timeout. Past it the browser is ended (BrowserUnresponsiveError), and
   * what `work` still yields later goes to `discard`, so a late context is not left open.
   */
  async function bounded<T>(step: string, work: Promise<T>, discard: (late: T) => unknown): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'expired'>((resolve) => {
      timer = setTimeout(() => resolve('expired'), timeoutMs);
    });
    try {
      const first = await Promise.race([work, expired]);
      if (first !== 'expired') return first as T;
    } finally {
      clearTimeout(timer);
    }
    work.then(discard, () => {});
    endUnresponsive();
    throw new BrowserUnresponsiveError(step, timeoutMs);
  }

  /**
   * A context and page, bounded. A browser that went away while they were opening (killed as
   * frozen for another session, crashed) is not this session's fault: once more in a fresh one.
   */
  async function openInLiveBrowser(): Promise<{ context: BrowserContext; page: Page }> {
    const closeLate = (late: { context: BrowserContext }) => late.context.close().catch(() => {});
    const { browser } = await start();
    try {
      return await bounded('open a session', openContext(browser), closeLate);
    } catch (err) {
      if (err instanceof BrowserUnresponsiveError || browser.isConnected()) throw err;
      const { browser: fresh } = await start();
      return bounded('open a session', openContext(fresh), closeLate);
    }
  }

  async function openContext(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({
      viewport: options.viewport ?? { width: 1280, height: 800 },
      serviceWorkers: 'block',
      acceptDownloads: false,
    });
    try {
      return { context, page: await context.newPage() };
    } catch (err) {
      await context.close().catch(() => {});
      throw err;
    }
  }

  function arm(id: string): NodeJS.Timeout {
    const timer = setTimeout(() => {
      options.onIdleClose?.(id);
      void close(id);
    }, options.idleMs);
    timer.unref();
    return timer;
  }

  /** Forgets a session that ended on its own, and says so (`onLost`). */
  function lose(id: string, context: BrowserContext): void {
    const entry = sessions.get(id);
    if (entry?.session.context !== context) return;
    clearTimeout(entry.timer);
    sessions.delete(id);
    options.onLost?.(id);
  }

  async function close(id: string): Promise<void> {
    const entry = sessions.get(id);
    if (!entry) return;
    sessions.delete(id);
    clearTimeout(entry.timer);
    await bounded('close a session', entry.session.context.close(), () => {}).catch(() => {});
  }

  return {
    /**
     * A new session; BrowserCapacityError when the cap is reached, BrowserUnresponsiveError when the
     * browser did not open it within the pool's timeout.
     */
    async open(id: string): Promise<PooledSession> {
      if (sessions.size + reserved >= options.maxSessions)
        throw new BrowserCapacityError(options.maxSessions, 30);
      reserved++;
      try {
        const { context, page } = await openInLiveBrowser();
        const session = { id, context, page };
        sessions.set(id, { session, timer: arm(id) });
        // `close` forgets a session before it closes the context, so only an ending nobody asked
        // for is still found here.
        context.on('close', () => lose(id, context));
        page.on('crash', () => {
          lose(id, context);
          void context.close().catch(() => {});
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
        // A browser that does not close in time is killed: shutdown must not wait on it for ever.
        if (browser)
          await bounded('close', browser.close(), () => {}).catch(() => killLocalChromium(browser));
        await proxy?.close();
      }
    },
  };
}

export type BrowserPool = ReturnType<typeof createBrowserPool>;
