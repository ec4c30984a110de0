import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createStore, type Store } from '@hs/store';
import { gatewayClient, type RunningStack, waitUntil } from '@hs/testing';
import { devIdentity } from '../src/adapters/identity-provider.ts';
import { buildApp, loadGatewayConfig } from '../src/index.ts';

/** An audit entry as the gateway queued it for the ledger. */
export type GateEntry = {
  category: string;
  action: string;
  actorId: string | null;
  targetId: string | null;
  severity: string;
  detail: Record<string, unknown>;
};

/** What cart-prep answers for a job it has just queued. */
export function queuedJob(body: Record<string, unknown>) {
  const now = new Date().toISOString();
  return {
    jobId: body.jobId,
    householdId: body.householdId,
    requestId: body.requestId,
    url: body.url,
    size: body.size ?? null,
    quantity: body.quantity ?? 1,
    status: 'QUEUED',
    errorCode: null,
    errorMessage: null,
    cart: null,
    attempts: 0,
    createdAt: now,
    updatedAt: now,
    startedAt: null,
    finishedAt: null,
  };
}

/** A stand-in cart-prep service on a loopback port: records dispatched jobs, answers like the real one. */
export async function startFakeCartprep(options: { delayMs?: number; fail?: number } = {}) {
  const jobs: Array<Record<string, unknown>> = [];
  const state = { delayMs: options.delayMs ?? 0, failWith: options.fail ?? 0 };
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    if (state.delayMs) await new Promise((r) => setTimeout(r, state.delayMs));
    if (state.failWith) {
      res.writeHead(state.failWith, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'INTERNAL_ERROR', message: 'boom' }));
      return;
    }
    const body = JSON.parse(raw || '{}');
    jobs.push({ ...body, token: req.headers['x-internal-token'] });
    res.writeHead(201, { 'content-type': 'application/json' });
    res.end(JSON.stringify(queuedJob(body)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, jobs, state, close: () => new Promise<void>((r) => server.close(() => r())) };
}

export const BUYFLOW_TOKEN = 'test-buyflow-token';

/** The gateway app on a given store, with a fake cart-prep; background loops off. */
export async function buildBuyflowGateway(
  options: { store?: Store; env?: Record<string, string>; cartprepDelayMs?: number } = {},
) {
  const cartprep = await startFakeCartprep({ delayMs: options.cartprepDelayMs ?? 0 });
  const store = options.store ?? createStore({ backend: 'inmemory' });
  const config = loadGatewayConfig({
    APP_ENV: 'test',
    CARTPREP_BASE_URL: cartprep.url,
    ARTIFACTS_AUDIT_BASE_URL: 'http://127.0.0.1:9',
    BUYFLOW_INTERNAL_TOKEN: BUYFLOW_TOKEN,
    INTERNAL_API_TIMEOUT_SECONDS: '2',
    ...options.env,
  });
  const app = await buildApp({ config, store, background: false });
  await app.ready();

  const login = async (name: string) => {
    const res = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { idToken: name } });
    return { userId: devIdentity(name).userId, auth: { authorization: `Bearer ${res.json().accessToken}` } };
  };
  const guardian = await login('parent');
  const adult = await login('adult');
  const child = await login('child');
  const outsider = await login('outsider');
  const household = (
    await app.inject({
      method: 'POST',
      url: '/api/v1/households',
      headers: guardian.auth,
      payload: { name: 'Home' },
    })
  ).json();
  const h = `/api/v1/households/${household.householdId}`;
  for (const [who, role] of [
    [adult, 'ADULT'],
    [child, 'CHILD'],
  ] as const)
    await app.inject({
      method: 'POST',
      url: `${h}/members`,
      headers: guardian.auth,
      payload: { memberId: who.userId, role },
    });

  /** PURCHASE_GATE entries waiting in the audit outbox (the ledger is down in these tests). */
  const gates = async () => {
    const page = await store
      .collection<{ payload: { event: GateEntry } }>('outbox_audit')
      .query({ limit: 500 });
    return page.items.map((i) => i.payload.event).filter((e) => e.category === 'PURCHASE_GATE');
  };

  const item = {
    title: 'Rain jacket',
    url: 'https://shop.example.com/p/rain-jacket',
    price: 80,
    currency: 'EUR',
    size: 'M',
  };
  const post = (
    url: string,
    who: { auth: Record<string, string> },
    payload: unknown = {},
    headers: Record<string, string> = {},
  ) =>
    app.inject({
      method: 'POST',
      url: `${h}${url}`,
      headers: { ...who.auth, ...headers },
      payload: payload as object,
    });
  const internal = (token = BUYFLOW_TOKEN) => ({ auth: { 'x-internal-token': token } });

  /**
   * A request of the adult's brought to CART_READY: approved by the guardian, its purchase started
   * by the adult, cart-prep's callback in. Its id, path (`r`, under the household) and intent.
   */
  const toCartReady = async () => {
    const created = (await post('/requests', adult, item)).json();
    const r = `/requests/${created.requestId}`;
    const approved = await post(`${r}/approve`, guardian);
    if (approved.statusCode !== 200) throw new Error(`approve: ${approved.statusCode} ${approved.body}`);
    const intent = (await post(`${r}/purchase-intents`, adult)).json();
    const ready = await post(`${r}/cart-ready`, internal(), {
      jobId: intent.cartprepJobId,
      cart: sampleCart(),
    });
    if (ready.statusCode !== 200) throw new Error(`cart-ready: ${ready.statusCode} ${ready.body}`);
    return { requestId: created.requestId as string, created, r, intent };
  };

  return {
    app,
    store,
    cartprep,
    guardian,
    adult,
    child,
    outsider,
    household,
    h,
    item,
    post,
    internal,
    toCartReady,
    gates,
    login,
    async close() {
      await app.close();
      await cartprep.close();
    },
  };
}

export const sampleCart = (subtotal = 80) => ({
  items: [{ title: 'Rain jacket', size: 'M', quantity: 1, unitPrice: subtotal }],
  subtotal,
  currency: 'EUR',
  merchantDomain: 'shop.example.com',
  checkoutUrl: 'https://shop.example.com/checkout?cart=abc',
});

/**
 * Calls through a real gateway process of a started stack (buy-flow stack tests): JSON calls,
 * dev login, and waits that print the gateway's and cart-prep's logs when they time out.
 */
export function stackClient(stack: () => RunningStack) {
  const client = () => gatewayClient(stack().url('gateway'));
  return {
    call: (method: string, path: string, token?: string, body?: unknown, headers?: Record<string, string>) =>
      client().api(path, {
        method,
        ...(token ? { token } : {}),
        ...(body !== undefined ? { body } : {}),
        ...(headers ? { headers } : {}),
      }),
    login: (name: string) => client().login(name),
    until: <T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs?: number) =>
      waitUntil(what, probe, {
        ...(timeoutMs ? { timeoutMs } : {}),
        context: () => `--- gateway\n${stack().logs('gateway')}\n--- cartprep\n${stack().logs('cartprep')}`,
      }),
  };
}
