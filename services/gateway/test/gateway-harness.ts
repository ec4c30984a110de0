import { createStore, type Store } from '@hs/store';
import { buildApp } from '../src/app.ts';
import { loadGatewayConfig } from '../src/config.ts';

/** A gateway app on the in-memory store, with dev login; peers point at closed ports unless given. */
export async function buildGateway(
  env: Record<string, string> = {},
  store: Store = createStore({ backend: 'inmemory' }),
) {
  const config = loadGatewayConfig({
    APP_ENV: 'test',
    ARTIFACTS_AUDIT_BASE_URL: 'http://127.0.0.1:9',
    ORCHESTRATOR_BASE_URL: 'http://127.0.0.1:9',
    WARDROBE_BASE_URL: 'http://127.0.0.1:9',
    COMMERCE_BASE_URL: 'http://127.0.0.1:9',
    ...env,
  });
  const app = await buildApp({ config, store, background: false });
  await app.ready();
  return app;
}

export type GatewayApp = Awaited<ReturnType<typeof buildGateway>>;

export async function login(app: GatewayApp, idToken: string): Promise<{ token: string; userId: string }> {
  const res = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { idToken } });
  const token = res.json().accessToken as string;
  const me = await app.inject({
    method: 'GET',
    url: '/api/v1/me',
    headers: { authorization: `Bearer ${token}` },
  });
  return { token, userId: me.json().userId };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A signed-in user with a household of their own (they are its PARENT_GUARDIAN). */
export async function withHousehold(app: GatewayApp, idToken: string) {
  const user = await login(app, idToken);
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/households',
    headers: bearer(user.token),
    payload: { name: 'Home' },
  });
  return { ...user, householdId: created.json().householdId as string };
}
