// BROWSER_PROVIDER=local: Debian's Chromium on this machine (packages/browser), one fresh browser
// context per session, every request through the address guard. The agent's actions run in the
// page; each returns a screenshot for the session's recording.
import { BrowserCapacityError, type BrowserPool, pageElements } from '@hs/browser';
import { AppError } from '@hs/service-kit';
import type { Page } from 'playwright-core';
import { type BrowserProvider, BrowserProviderError, type ProviderHandle } from './browser-provider.ts';
import { ACTION_TIMEOUT_MS, runAction } from './page-actions.ts';

export function createLocalProvider(pool: BrowserPool): BrowserProvider {
  function page(handle: ProviderHandle): Page {
    const session = pool.use(handle.providerSessionId);
    if (!session) throw new BrowserProviderError('The browser session is gone', { sessionLost: true });
    return session.page;
  }

  return {
    name: 'local',
    async create({ sessionId, startUrl }) {
      let opened: Awaited<ReturnType<BrowserPool['open']>>;
      try {
        opened = await pool.open(sessionId);
      } catch (err) {
        if (err instanceof BrowserCapacityError)
          throw new AppError('SERVICE_UNAVAILABLE', 503, err.message, {
            headers: { 'retry-after': String(err.retryAfterSeconds) },
          });
        throw err;
      }
      opened.page.setDefaultTimeout(ACTION_TIMEOUT_MS);
      try {
        await opened.page.goto(startUrl, { waitUntil: 'domcontentloaded' });
      } catch (err) {
        await pool.close(sessionId);
        throw err;
      }
      return { providerSessionId: sessionId, liveViewUrl: null };
    },
    act: (handle, action) => runAction(page(handle), action),
    async elements(handle) {
      const p = page(handle);
      return { url: p.url(), elements: await pageElements(p) };
    },
    async terminate(handle) {
      await pool.close(handle.providerSessionId);
    },
    livePage: (handle) => pool.use(handle.providerSessionId)?.page,
    close: () => pool.closeAll(),
  };
}
