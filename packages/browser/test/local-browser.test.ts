// One real Chromium for the whole file: the guard proxy in front of it, the pool's cap and
// cleanup, and the elements the agent reads.
import { type DemoShop, startDemoShop } from '@hs/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAddressGuard } from '../src/address-guard.ts';
import { BLOCKED_HEADER } from '../src/guard-proxy.ts';
import { pageElements } from '../src/page-elements.ts';
import { BrowserCapacityError, type BrowserPool, createBrowserPool } from '../src/session-pool.ts';

let shop: DemoShop;
let pool: BrowserPool;
let port: number;

beforeAll(async () => {
  shop = await startDemoShop();
  port = Number(new URL(shop.url).port);
  // localtest.me "resolves" to loopback here as it does on the public internet.
  const guard = createAddressGuard({
    allowPrivateHosts: [shop.host],
    resolve: async (host) => {
      if (host === 'localtest.me' || host === 'localhost') return ['127.0.0.1'];
      throw new Error('ENOTFOUND');
    },
  });
  pool = createBrowserPool({ guard, maxSessions: 2, idleMs: 60_000 });
});

afterEach(async () => {
  for (const id of ['bs_guard', 'bs_redirect', 'bs_a', 'bs_b', 'bs_c', 'bs_elements']) await pool.close(id);
});

afterAll(async () => {
  await pool?.closeAll();
  await shop?.close();
});

describe('local browser behind the address guard', () => {
  it('reaches the allowlisted shop, and refuses a name that resolves to loopback', async () => {
    const { page } = await pool.open('bs_guard');
    const ok = await page.goto(`${shop.url}/`);
    expect(ok?.status()).toBe(200);
    const refused = await page.goto(`http://localtest.me:${port}/`);
    expect(refused?.status()).toBe(403);
    expect(refused?.headers()[BLOCKED_HEADER]).toBe('localtest.me resolves to a non-public address');
    expect(shop.requests.filter((r) => r !== 'GET /favicon.ico')).toEqual(['GET /']);
    await pool.close('bs_guard');
  });

  it('refuses a redirect that leaves the allowlisted host', async () => {
    const { page } = await pool.open('bs_redirect');
    const response = await page.goto(`${shop.url}/product/off-site`);
    expect(response?.status()).toBe(403);
    expect(page.url()).toBe(`http://localhost:${port}/product/classic-tee`);
    expect(shop.requests.at(-1)).toBe('GET /product/off-site');
    await pool.close('bs_redirect');
  });

  it('caps concurrent sessions, frees a slot on close, and gives each session a fresh profile', async () => {
    const a = await pool.open('bs_a');
    await pool.open('bs_b');
    await expect(pool.open('bs_c')).rejects.toBeInstanceOf(BrowserCapacityError);
    await a.page.goto(`${shop.url}/product/classic-tee`);
    await a.page.getByRole('button', { name: 'Accept all' }).click();
    await a.page.selectOption('#size', 'M');
    await a.page.click('button.add');
    await a.page.waitForURL(/added=1/);
    await pool.close('bs_a');
    expect(pool.size()).toBe(1);
    const c = await pool.open('bs_c');
    await c.page.goto(`${shop.url}/cart`);
    expect(await c.page.locator('.cart-item').count()).toBe(0);
    await pool.close('bs_b');
    await pool.close('bs_c');
  });

  it('lists visible interactive elements with role, name, a working selector and a box', async () => {
    const { page } = await pool.open('bs_elements');
    await page.goto(`${shop.url}/p/linen-shirt`);
    const elements = await pageElements(page);
    const bag = elements.find((e) => e.name === 'Add to bag');
    expect(bag).toMatchObject({ role: 'button', selector: '#bag', href: null });
    expect(bag?.box?.width).toBeGreaterThan(0);
    expect(elements.find((e) => e.role === 'combobox')).toMatchObject({
      name: 'Quantity',
      selector: 'select[name="qty"]',
    });
    expect(elements.find((e) => e.role === 'link' && e.name === 'Bag')?.href).toBe(`${shop.url}/cart`);
    const radio = elements.find((e) => e.role === 'radio' && e.name.startsWith('M'));
    expect(radio).toBeDefined();
    await page.click(radio!.selector);
    expect(await page.locator('input[value=M]').isChecked()).toBe(true);
    await pool.close('bs_elements');
  });
});
