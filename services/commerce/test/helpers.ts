import { createStore, type Store } from '@hs/store';
import { buildApp } from '../src/app.ts';
import { loadCommerceConfig } from '../src/config.ts';

export const TOKEN = 'test-commerce-token';
export const headers = {
  'x-internal-token': TOKEN,
  'x-user-id': 'usr_a',
  'x-member-role': 'PARENT_GUARDIAN',
};

export async function commerceApp(
  env: Record<string, string> = {},
  store: Store = createStore({ backend: 'inmemory' }),
) {
  const config = loadCommerceConfig({ APP_ENV: 'test', COMMERCE_INTERNAL_TOKEN: TOKEN, ...env });
  const app = await buildApp({ config, store });
  return Object.assign(app, { store });
}

export const offer = (over: Record<string, unknown> = {}) => ({
  title: 'Linen summer shirt',
  brand: 'Acme',
  url: 'https://shop.acme.com/p/1',
  price: 40,
  currency: 'EUR',
  category: 'TOP',
  colors: ['white'],
  season: ['SUMMER'],
  sizes: ['M', 'L'],
  ...over,
});
