// The cart page is checked like the product page. A shop in front of the demo shop changes only
// its cart page: express-checkout card fields on it must stop the job (SAFETY_VIOLATION) before
// the cart is read, and a cart kept under /checkout/cart (Magento) is still a cart.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { DEMO_PATHS, type DemoShop, startDemoShop } from '@hs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCartprep } from './cartprep-harness.ts';

const CARD_FIELDS =
  '<form class="express-pay"><label>Card number <input name="cardnumber" autocomplete="cc-number"></label></form>';

type CartVariant = { cartPath: string; extra: string };
let variant: CartVariant = { cartPath: '/cart', extra: '' };
let shop: DemoShop;
let front: Server;
let frontUrl: string;
let cartprep: Awaited<ReturnType<typeof buildCartprep>>;
let seq = 0;

async function body(req: IncomingMessage): Promise<string> {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  return raw;
}

/** The demo shop, its cart link and cart page swapped for the variant under test. */
async function startFrontShop(): Promise<Server> {
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://front').pathname;
    const upstreamPath = path === variant.cartPath ? '/cart' : (req.url ?? '/');
    const upstream = await fetch(`${shop.url}${upstreamPath}`, {
      method: req.method ?? 'GET',
      headers: {
        cookie: req.headers.cookie ?? '',
        accept: req.headers.accept ?? '*/*',
        'content-type': req.headers['content-type'] ?? 'text/plain',
      },
      ...(req.method === 'POST' ? { body: await body(req) } : {}),
      redirect: 'manual',
    });
    let text = await upstream.text();
    if (upstream.headers.get('content-type')?.includes('text/html')) {
      text = text.replace('href="/cart"', `href="${variant.cartPath}"`);
      if (path === variant.cartPath) text = text.replace('</main>', `${variant.extra}</main>`);
    }
    const headers: Record<string, string | string[]> = {
      'content-type': upstream.headers.get('content-type') ?? 'text/plain',
    };
    const location = upstream.headers.get('location');
    if (location) headers.location = location;
    const cookies = upstream.headers.getSetCookie();
    if (cookies.length) headers['set-cookie'] = cookies;
    res.writeHead(upstream.status, headers).end(text);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

beforeAll(async () => {
  shop = await startDemoShop();
  front = await startFrontShop();
  const address = front.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  frontUrl = `http://127.0.0.1:${port}`;
  cartprep = await buildCartprep({
    CARTPREP_EXECUTOR: 'browser',
    ALLOW_PRIVATE_MERCHANT_HOSTS: `127.0.0.1:${port}`,
    CARTPREP_JOB_TIMEOUT_SECONDS: '20',
    CARTPREP_MAX_ATTEMPTS: '1',
  });
});

afterAll(async () => {
  await cartprep?.close();
  front?.closeAllConnections();
  front?.close();
  await shop?.close();
});

async function prepare(cart: CartVariant) {
  variant = cart;
  const jobId = `cpj_cartpage${String(++seq).padStart(4, '0')}`;
  const created = await cartprep.create({
    jobId,
    householdId: 'h_home',
    requestId: `pr_cartpage_${seq}`,
    url: `${frontUrl}${DEMO_PATHS.layoutA}`,
    size: 'M',
    quantity: 1,
  });
  expect(created.statusCode).toBe(201);
  return (await cartprep.process(jobId)).json();
}

describe('browser cart preparation on the cart page', () => {
  it('SAFETY_VIOLATION when the cart page holds a payment form', async () => {
    const job = await prepare({ cartPath: '/cart', extra: CARD_FIELDS });
    expect(job).toMatchObject({ status: 'FAILED', errorCode: 'SAFETY_VIOLATION', cart: null });
    expect(job.evidence.reason).toMatch(/payment form/);
    expect(job.evidence.finalUrl).toBe(`${frontUrl}/cart`);
  }, 40_000);

  it('reads a cart kept under /checkout/cart like any other cart', async () => {
    const job = await prepare({ cartPath: '/checkout/cart/', extra: '' });
    expect(job).toMatchObject({ status: 'SUCCEEDED', errorCode: null });
    expect(job.cart.items).toEqual([{ title: 'Classic Tee', size: 'M', quantity: 1, unitPrice: 19.9 }]);
  }, 40_000);

  it('reads ordinary carts: other cart paths, a hidden sign-in dropdown with its captcha, an express-pay button', async () => {
    const hiddenSignIn =
      '<div style="display:none" class="account-dropdown"><input type="password" name="password"><div class="g-recaptcha"></div></div>';
    const expressPay =
      '<iframe src="about:blank#elements-inner-payment-request" title="Express checkout"></iframe>';
    for (const cart of [
      { cartPath: '/order/cart', extra: '' },
      { cartPath: '/checkout/basket', extra: '' },
      { cartPath: '/cart', extra: hiddenSignIn },
      { cartPath: '/cart', extra: expressPay },
    ]) {
      const job = await prepare(cart);
      expect(job, JSON.stringify(cart)).toMatchObject({ status: 'SUCCEEDED', errorCode: null });
    }
  }, 120_000);
});
