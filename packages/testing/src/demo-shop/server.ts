// The demo merchant on loopback port 0: the pages of pages.ts behind the routes a shop would
// have. Carts live in memory, keyed by a cookie, so each fresh browser context starts empty.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import {
  type CartLine,
  cartPage,
  challengePage,
  layout,
  loginPage,
  modalPage,
  PRODUCTS,
  paymentPage,
  plainPage,
  productA,
  productB,
} from './pages.ts';

export type DemoShop = {
  /** `http://127.0.0.1:<port>` */
  url: string;
  host: string;
  /** `METHOD path` of every request received, in order. */
  requests: string[];
  /** Every line added to any cart, in order. */
  added: CartLine[];
  close(): Promise<void>;
};

/** Every page the shop serves, by what it puts in a cart-preparation agent's way. */
export const DEMO_PATHS = {
  layoutA: '/product/classic-tee',
  layoutB: '/p/linen-shirt',
  modal: '/product/modal-tee',
  loginWall: '/product/members-only',
  botChallenge: '/product/challenge',
  slow: '/product/slow',
  offSite: '/product/off-site',
  paymentTrap: '/product/checkout-trap',
  noProduct: '/about',
  broken: '/product/broken',
  shortCart: '/product/short-cart',
} as const;

const html = (res: ServerResponse, body: string, status = 200) =>
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);

const redirect = (res: ServerResponse, location: string, status = 302) =>
  res.writeHead(status, { location }).end();

async function form(req: IncomingMessage): Promise<URLSearchParams> {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  return new URLSearchParams(raw);
}

export async function startDemoShop(): Promise<DemoShop> {
  const carts = new Map<string, CartLine[]>();
  const added: CartLine[] = [];
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  let port = 0;

  const cartOf = (req: IncomingMessage) => /(?:^|;\s*)cart=([\w-]+)/.exec(req.headers.cookie ?? '')?.[1];

  async function add(req: IncomingMessage, res: ServerResponse, forceQuantity?: number) {
    const f = await form(req);
    const product = PRODUCTS[f.get('product') ?? ''];
    const size = f.get('size') ?? '';
    if (!product?.sizes.includes(size) || product.soldOut.includes(size)) {
      html(res, layout('Error', '<p>Please choose an available size.</p>'), 400);
      return;
    }
    const quantity = forceQuantity ?? Math.max(1, Math.min(10, Number(f.get('quantity')) || 1));
    let id = cartOf(req);
    const headers: Record<string, string> = {};
    if (!id || !carts.has(id)) {
      id = randomUUID();
      carts.set(id, []);
      headers['set-cookie'] = `cart=${id}; Path=/; HttpOnly; SameSite=Lax`;
    }
    carts.get(id)!.push({ slug: product.slug, size, quantity });
    added.push({ slug: product.slug, size, quantity });
    if (req.headers.accept?.includes('application/json'))
      res.writeHead(200, { 'content-type': 'application/json', ...headers }).end('{"ok":true}');
    else res.writeHead(303, { location: `/product/${product.slug}?added=1`, ...headers }).end();
  }

  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://shop').pathname;
    requests.push(`${req.method} ${path}`);
    const tee = PRODUCTS['classic-tee']!;
    if (req.method === 'POST') {
      if (path === '/cart/add') return add(req, res);
      if (path === '/cart/add-one') return add(req, res, 1);
      if (path === '/pay-now') return redirect(res, '/payment', 303);
      return html(res, layout('Not found', '<p>Not found</p>'), 404);
    }
    switch (path) {
      case '/':
        return html(
          res,
          layout(
            'Demo Shop',
            `<main><h1>Demo Shop</h1><a href="${DEMO_PATHS.layoutA}">Classic Tee</a> <a href="${DEMO_PATHS.layoutB}">Linen Shirt</a></main>`,
          ),
        );
      case DEMO_PATHS.layoutA:
        return html(res, productA(tee, { banner: true }));
      case DEMO_PATHS.layoutB:
        return html(res, productB(PRODUCTS['linen-shirt']!));
      case DEMO_PATHS.modal:
        return html(res, modalPage(tee));
      case DEMO_PATHS.loginWall:
        return redirect(res, '/login?next=/product/members-only');
      case '/login':
        return html(res, loginPage);
      case DEMO_PATHS.botChallenge:
        return html(res, challengePage, 403);
      case DEMO_PATHS.slow:
        return; // never answers: the client's deadline decides
      case DEMO_PATHS.offSite:
        return redirect(res, `http://localhost:${port}${DEMO_PATHS.layoutA}`);
      case DEMO_PATHS.paymentTrap:
        return html(res, productA(tee, { banner: false, action: '/pay-now' }));
      case '/payment':
      case '/checkout':
        return html(res, paymentPage);
      case DEMO_PATHS.noProduct:
        return html(res, plainPage);
      case DEMO_PATHS.broken:
        return html(res, layout('Error', '<h1>Internal Server Error</h1>'), 500);
      case DEMO_PATHS.shortCart:
        return html(res, productA(tee, { banner: false, action: '/cart/add-one' }));
      case '/cart':
        return html(res, cartPage(carts.get(cartOf(req) ?? '') ?? []));
      default:
        return html(res, layout('Not found', '<h1>Page not found</h1>'), 404);
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    requests,
    added,
    close: async () => {
      for (const s of sockets) s.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
