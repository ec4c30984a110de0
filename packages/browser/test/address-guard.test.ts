import { ConfigError } from '@hs/service-kit';
import { describe, expect, it } from 'vitest';
import { createAddressGuard } from '../src/address-guard.ts';
import { privateMerchantHosts } from '../src/private-merchant-hosts.ts';

// Names are resolved by an injected resolver: nothing here touches DNS.
const resolver = (table: Record<string, string[]>) => async (host: string) => {
  const hit = table[host];
  if (!hit) throw new Error('ENOTFOUND');
  return hit;
};

describe('address guard', () => {
  const guard = createAddressGuard({
    resolve: resolver({
      'localtest.me': ['127.0.0.1'],
      '127.0.0.1.nip.io': ['127.0.0.1'],
      'metadata.example.com': ['169.254.169.254'],
      'split.example.com': ['93.184.216.34', '10.0.0.5'],
      'shop.example.com': ['93.184.216.34'],
    }),
    allowPrivateHosts: ['shop.local:8443'],
  });

  it('refuses names that resolve to loopback, link-local metadata or any private address', async () => {
    expect(await guard.check('localtest.me', 80)).toEqual({
      ok: false,
      reason: 'localtest.me resolves to a non-public address',
    });
    expect(await guard.check('127.0.0.1.nip.io', 443)).toMatchObject({ ok: false });
    expect(await guard.check('metadata.example.com', 80)).toMatchObject({ ok: false });
    expect(await guard.check('split.example.com', 443)).toMatchObject({ ok: false });
    expect(await guard.check('[::1]', 443)).toMatchObject({ ok: false });
    expect(await guard.check('unknown.example.com', 443)).toEqual({
      ok: false,
      reason: 'unknown.example.com does not resolve',
    });
  });

  it('lets public names through on web ports only, naming the address to connect to', async () => {
    expect(await guard.check('shop.example.com', 443)).toEqual({ ok: true, address: '93.184.216.34' });
    expect(await guard.check('shop.example.com', 6379)).toEqual({
      ok: false,
      reason: 'port 6379 is not a web port',
    });
  });

  it('lets an allowlisted host:port reach a private address, and nothing else on that host', async () => {
    const local = createAddressGuard({
      resolve: resolver({ 'shop.local': ['127.0.0.1'] }),
      allowPrivateHosts: ['shop.local:8443', '127.0.0.1:9000'],
    });
    expect(await local.check('shop.local', 8443)).toEqual({ ok: true, address: '127.0.0.1' });
    expect(await local.check('127.0.0.1', 9000)).toEqual({ ok: true, address: '127.0.0.1' });
    expect(await local.check('shop.local', 8444)).toMatchObject({ ok: false });
    expect(await local.check('127.0.0.1', 9001)).toMatchObject({ ok: false });
  });
});

describe('ALLOW_PRIVATE_MERCHANT_HOSTS', () => {
  it('is accepted in dev and test, refused in staging and production', () => {
    expect(privateMerchantHosts(['Shop.Local:8080'], 'test')).toEqual(['shop.local:8080']);
    expect(() => privateMerchantHosts(['127.0.0.1:8080'], 'production')).toThrow(
      new ConfigError(
        'Configuration error: ALLOW_PRIVATE_MERCHANT_HOSTS is not allowed when APP_ENV=production',
      ),
    );
    expect(() => privateMerchantHosts(['shop.local'], 'dev')).toThrow(/must be host:port/);
    expect(privateMerchantHosts([], 'staging')).toEqual([]);
  });
});
