// BROWSER_PROVIDER=cloud: a hosted browser speaking Browserbase's public API
// (https://docs.browserbase.com/reference/api/create-a-session): `POST /v1/sessions` hands out a
// CDP `connectUrl`, which playwright-core attaches to (`chromium.connectOverCDP`); `GET
// /v1/sessions/{id}/debug` gives the provider's own live view; `POST /v1/sessions/{id}` with
// `REQUEST_RELEASE` ends it. Key BROWSER_API_KEY (header X-BB-API-Key), project BROWSER_PROJECT_ID.
import { pageElements } from '@hs/browser';
import type { Browser, Page } from 'playwright-core';
import { type BrowserProvider, BrowserProviderError, type ProviderHandle } from './browser-provider.ts';
import { ACTION_TIMEOUT_MS, runAction } from './page-actions.ts';

export type CloudSettings = { apiBaseUrl: string; apiKey: string; projectId: string; timeoutMs: number };

export function createCloudProvider(settings: CloudSettings): BrowserProvider {
  const open = new Map<string, { browser: Browser; page: Page }>();
  const base = settings.apiBaseUrl.replace(/\/$/, '');

  async function api<T>(method: string, path: string, body?: object): Promise<T> {
    const reply = await fetch(`${base}${path}`, {
      method,
      headers: { 'x-bb-api-key': settings.apiKey, 'content-type': 'application/json' },
      signal: AbortSignal.timeout(settings.timeoutMs),
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    if (!reply.ok)
      throw new BrowserProviderError(`Browser provider answered HTTP ${reply.status} to ${method} ${path}`);
    return (await reply.json()) as T;
  }

  function page(handle: ProviderHandle): Page {
    const session = open.get(handle.providerSessionId);
    if (!session?.browser.isConnected())
      throw new BrowserProviderError('The hosted browser is gone', { sessionLost: true });
    return session.page;
  }

  async function release(id: string) {
    const session = open.get(id);
    open.delete(id);
    await session?.browser.close().catch(() => {});
    await api('POST', `/v1/sessions/${encodeURIComponent(id)}`, {
      projectId: settings.projectId,
      status: 'REQUEST_RELEASE',
    });
  }

  return {
    name: 'cloud',
    async create({ startUrl }) {
      const created = await api<{ id: string; connectUrl: string }>('POST', '/v1/sessions', {
        projectId: settings.projectId,
      });
      try {
        const debug = await api<{ debuggerFullscreenUrl?: string }>(
          'GET',
          `/v1/sessions/${encodeURIComponent(created.id)}/debug`,
        );
        // Loaded on first use, as for the local browser (see launchLocalChromium).
        const { chromium } = await import('playwright-core');
        const browser = await chromium.connectOverCDP(created.connectUrl, { timeout: settings.timeoutMs });
        const context = browser.contexts()[0] ?? (await browser.newContext());
        const p = context.pages()[0] ?? (await context.newPage());
        p.setDefaultTimeout(ACTION_TIMEOUT_MS);
        open.set(created.id, { browser, page: p });
        await p.goto(startUrl, { waitUntil: 'domcontentloaded' });
        return { providerSessionId: created.id, liveViewUrl: debug.debuggerFullscreenUrl ?? null };
      } catch (err) {
        await release(created.id).catch(() => {});
        throw err;
      }
    },
    act: (handle, action) => runAction(page(handle), action),
    async elements(handle) {
      const p = page(handle);
      return { url: p.url(), elements: await pageElements(p) };
    },
    terminate: (handle) => release(handle.providerSessionId),
    async close() {
      await Promise.all([...open.keys()].map((id) => release(id).catch(() => {})));
    },
  };
}
