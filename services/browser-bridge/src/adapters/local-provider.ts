// BROWSER_PROVIDER=local: Debian's Chromium on this machine (packages/browser), one fresh browser
// context per session, every request through the address guard. The agent's actions run in the
// page; each returns a screenshot for the session's recording.
import { BrowserCapacityError, type BrowserPool, pageElements, pageIsGone } from '@hs/browser';
import { AppError, nestedTimeoutMs } from '@hs/service-kit';
import type { Page } from 'playwright-core';
import {
  type BrowserProvider,
  BrowserProviderError,
  ElementNotActionableError,
  type ProviderHandle,
} from './browser-provider.ts';
import { ACTION_TIMEOUT_MS, runAction } from './page-actions.ts';

/**
 * The start page's load, cut to what the caller still waits (0 would mean no limit to
 * playwright): a slow page must not open a session after its caller gave up on it.
 */
const startPageTimeoutMs = () => Math.max(1, nestedTimeoutMs(ACTION_TIMEOUT_MS));

export function createLocalProvider(pool: BrowserPool): BrowserProvider {
  // The pages of the sessions opened here, for `holds`: asking the pool (`use`) would restart the
  // session's idle clock, and counting a session must not keep it alive.
  const opened = new Map<string, Page>();

  function page(handle: ProviderHandle): Page {
    const session = pool.use(handle.providerSessionId);
    if (!session) throw new BrowserProviderError('The browser session is gone', { sessionLost: true });
    return session.page;
  }

  /**
   * `work` on the session's page. A call that fails because the browser went away under it
   * (killed, crashed, its page closed) says so (`sessionLost`), even before the pool has heard.
   */
  async function onPage<T>(handle: ProviderHandle, work: (p: Page) => Promise<T>): Promise<T> {
    const p = page(handle);
    try {
      return await work(p);
    } catch (err) {
      if (err instanceof ElementNotActionableError) throw err;
      if (pageIsGone(p))
        throw new BrowserProviderError('The browser session is gone', { sessionLost: true, cause: err });
      throw err;
    }
  }

  return {
    name: 'local',
    async create({ sessionId, startUrl }) {
      let session: Awaited<ReturnType<BrowserPool['open']>>;
      try {
        session = await pool.open(sessionId);
      } catch (err) {
        if (err instanceof BrowserCapacityError)
          throw new AppError('SERVICE_UNAVAILABLE', 503, err.message, {
            headers: { 'retry-after': String(err.retryAfterSeconds) },
          });
        throw err;
      }
      session.page.setDefaultTimeout(ACTION_TIMEOUT_MS);
      try {
        await session.page.goto(startUrl, { waitUntil: 'domcontentloaded', timeout: startPageTimeoutMs() });
      } catch (err) {
        await pool.close(sessionId);
        throw err;
      }
      opened.set(sessionId, session.page);
      // The pool closes the context when it ends the session (terminate, idleness, shutdown).
      session.context.on('close', () => opened.delete(sessionId));
      return { providerSessionId: sessionId, liveViewUrl: null };
    },
    holds(handle) {
      const p = opened.get(handle.providerSessionId);
      return !!p && !pageIsGone(p);
    },
    heldSessionIds: () => [...opened.keys()],
    act: (handle, action) => onPage(handle, (p) => runAction(p, action)),
    elements: (handle) => onPage(handle, async (p) => ({ url: p.url(), elements: await pageElements(p) })),
    async terminate(handle) {
      opened.delete(handle.providerSessionId);
      await pool.close(handle.providerSessionId);
    },
    livePage: (handle) => pool.use(handle.providerSessionId)?.page,
    close: () => pool.closeAll(),
  };
}
