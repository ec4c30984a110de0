// Issue 11 "Done when", in a real browser: a page served from another origin than the gateway
// signs in, edits and deletes a wardrobe item, uploads an image through the signed URL, and
// follows a mission with the browser's own EventSource (stream token in the query), which
// resumes by itself after the gateway is killed and restarted. Headless Debian Chromium over
// playwright-core; every address is loopback.

import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { CHROMIUM_FLAGS } from '@hs/browser';
import { freePort, type RunningStack, startStack } from '@hs/testing';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CHROMIUM = '/usr/bin/chromium';
let stack: RunningStack;
let pageServer: Server;
let browser: Browser;
let page: Page;
let api = '';

beforeAll(async () => {
  const pagePort = await freePort();
  const origin = `http://127.0.0.1:${pagePort}`;
  pageServer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>app</title><p>app</p>');
  });
  await new Promise<void>((resolve) => pageServer.listen(pagePort, '127.0.0.1', resolve));
  stack = await startStack({
    services: ['gateway', 'orchestrator', 'wardrobe', 'commerce'],
    durable: true,
    env: { ORCHESTRATOR_SSE_RETRY_MS: '300' },
    perService: { gateway: { CORS_ORIGINS: origin } },
  });
  api = stack.url('gateway');
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_FLAGS,
  });
  page = await browser.newPage();
  await page.goto(`${origin}/`);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await new Promise((resolve) => pageServer?.close(resolve));
});

type Reply = {
  status: number;
  body: unknown;
  etag: string | null;
  requestId: string | null;
  cacheControl: string | null;
};

/** fetch() from inside the page: the browser applies CORS exactly as it would for an app. */
const call = (
  path: string,
  init: { method?: string; token?: string; body?: unknown; headers?: Record<string, string> } = {},
) =>
  page.evaluate(
    async ({ url, init }): Promise<Reply> => {
      const headers: Record<string, string> = { ...init.headers };
      if (init.token) headers.authorization = `Bearer ${init.token}`;
      if (init.body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(url, {
        method: init.method ?? 'GET',
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      const text = await res.text();
      return {
        status: res.status,
        body: text ? JSON.parse(text) : null,
        etag: res.headers.get('etag'),
        requestId: res.headers.get('x-request-id'),
        cacheControl: res.headers.get('cache-control'),
      };
    },
    { url: `${api}${path}`, init },
  );

describe.runIf(existsSync(CHROMIUM))('a browser app on another origin', () => {
  let token = '';
  let householdId = '';
  const h = (path: string) => `/api/v1/households/${householdId}${path}`;

  it('signs in and edits, then deletes a wardrobe item (PATCH and DELETE pass the preflight)', async () => {
    const login = await call('/api/v1/auth/login', {
      method: 'POST',
      body: { idToken: 'browser@family.test' },
    });
    expect(login.status).toBe(200);
    expect(login.cacheControl).toBe('no-store');
    token = (login.body as { accessToken: string }).accessToken;
    const household = await call('/api/v1/households', {
      method: 'POST',
      token,
      body: { name: 'Browser family' },
    });
    expect(household.status).toBe(201);
    householdId = (household.body as { householdId: string }).householdId;

    const made = await call(h('/wardrobe/items'), {
      method: 'POST',
      token,
      body: { category: 'TOP', colors: ['blue'] },
    });
    expect(made.status).toBe(201);
    // Exposed headers are readable by the page.
    expect(made.requestId).toMatch(/.+/);
    const itemId = (made.body as { itemId: string }).itemId;
    const read = await call(h(`/wardrobe/items/${itemId}`), { token });
    expect(read.etag).toMatch(/^(W\/)?"/);
    const patched = await call(h(`/wardrobe/items/${itemId}`), {
      method: 'PATCH',
      token,
      body: { brand: 'Linen & Co' },
      headers: { 'if-match': read.etag! },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ itemId, brand: 'Linen & Co' });
    const deleted = await call(h(`/wardrobe/items/${itemId}`), { method: 'DELETE', token });
    expect(deleted.status).toBe(204);
    expect((await call(h(`/wardrobe/items/${itemId}`), { token })).status).toBe(404);
  });

  it('uploads an image with a PUT to the signed URL and confirms it', async () => {
    const made = await call(h('/wardrobe/items'), { method: 'POST', token, body: { category: 'TOP' } });
    const itemId = (made.body as { itemId: string }).itemId;
    const url = await call(h(`/wardrobe/items/${itemId}/upload-url`), {
      method: 'POST',
      token,
      body: { contentType: 'image/png' },
    });
    expect(url.status).toBe(200);
    const { imageId, uploadUrl, headers } = url.body as {
      imageId: string;
      uploadUrl: string;
      headers: Record<string, string>;
    };
    const uploaded = await page.evaluate(
      async ({ uploadUrl, headers }) => {
        // A 1x1 PNG, made in the page as an app would from a picked file.
        const b64 =
          'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const res = await fetch(uploadUrl, {
          method: 'PUT',
          headers: { ...headers, 'content-type': 'image/png' },
          body: new Blob([bytes], { type: 'image/png' }),
        });
        return { status: res.status, body: await res.json() };
      },
      { uploadUrl, headers },
    );
    expect(uploaded.status).toBe(200);
    expect(uploaded.body).toMatchObject({ contentType: 'image/png', size: 70 });
    const confirmed = await call(h(`/wardrobe/items/${itemId}/images/${imageId}/confirm`), {
      method: 'POST',
      token,
    });
    expect(confirmed.status).toBe(200);
  });

  it('follows a mission with EventSource and a stream token, and resumes after a gateway restart', async () => {
    const created = await call(h('/orchestrator/missions'), {
      method: 'POST',
      token,
      body: { mission_type: 'STYLE', initial_message: 'a summer top under 80' },
    });
    expect(created.status).toBe(201);
    const mId = (created.body as { mission_id: string }).mission_id;
    const issued = await call(h(`/orchestrator/missions/${mId}/stream-token`), { method: 'POST', token });
    expect(issued.status).toBe(200);
    const { streamToken } = issued.body as { streamToken: string };
    const streamUrl = `${api}${h(`/orchestrator/missions/${mId}/stream`)}?streamToken=${encodeURIComponent(streamToken)}`;

    await page.evaluate((url) => {
      const w = globalThis as unknown as { seen: Array<{ id: string; type: string }>; opens: number };
      w.seen = [];
      w.opens = 0;
      const source = new EventSource(url);
      source.onopen = () => w.opens++;
      for (const type of [
        'turn.started',
        'message',
        'turn.completed',
        'turn.failed',
        'tool.call',
        'tool.result',
      ])
        source.addEventListener(type, (e) => w.seen.push({ id: (e as MessageEvent).lastEventId, type }));
    }, streamUrl);
    const seen = () =>
      page.evaluate(() => (globalThis as unknown as { seen: Array<{ id: string; type: string }> }).seen);
    await expect
      .poll(async () => (await seen()).filter((e) => e.type === 'turn.completed').length, { timeout: 20_000 })
      .toBe(1);

    await stack.kill('gateway');
    await stack.start('gateway');
    const chat = await call(h(`/orchestrator/missions/${mId}/chat`), {
      method: 'POST',
      token,
      body: { message: 'something in blue' },
    });
    expect(chat.status).toBe(200);
    await expect
      .poll(async () => (await seen()).filter((e) => e.type === 'turn.completed').length, { timeout: 20_000 })
      .toBe(2);

    const events = await seen();
    const ids = events.map((e) => Number(e.id));
    // Resumed with Last-Event-ID: nothing replayed twice, nothing skipped out of order.
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    expect(events.filter((e) => e.type === 'turn.started')).toHaveLength(2);
    expect(
      await page.evaluate(() => (globalThis as unknown as { opens: number }).opens),
    ).toBeGreaterThanOrEqual(2);
  });

  it('shows the API documentation at /docs under its security policy', async () => {
    const docs = await browser.newPage();
    const refused: string[] = [];
    docs.on('console', (m) => {
      if (m.type() === 'error') refused.push(m.text());
    });
    await docs.goto(`${api}/docs`);
    await docs.waitForSelector('.swagger-ui .info .title', { timeout: 15_000 });
    expect(await docs.textContent('.swagger-ui .info .title')).toContain('Household styling API');
    expect(refused.filter((m) => m.includes('Content Security Policy'))).toEqual([]);
    await docs.close();
  });
});
