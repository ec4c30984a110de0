import { afterAll, describe, expect, it } from 'vitest';
import { clientAddressKey } from '../src/domain/client-address.ts';
import { buildGateway, type GatewayApp } from './gateway-harness.ts';

const apps: GatewayApp[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
});

const signIn = (app: GatewayApp, remoteAddress: string, idToken: string) =>
  app.inject({ method: 'POST', url: '/api/v1/auth/login', remoteAddress, payload: { idToken } });

describe('per-client-address limits and IPv6', () => {
  it('counts every address of one IPv6 /64 as one client, so rotating addresses does not reset the sign-in limit', async () => {
    const app = await buildGateway({ RATE_LIMIT_LOGIN_PER_MINUTE: '3' });
    apps.push(app);
    // One phone or home network picks any address in its /64 (privacy addresses do so on their own).
    const rotating = [
      '2001:db8:1:2::1',
      '2001:db8:1:2::2',
      '2001:db8:1:2:aaaa::3',
      '2001:db8:1:2:ffff:1:2:3',
    ];
    const statuses = [];
    for (const [i, address] of rotating.entries())
      statuses.push((await signIn(app, address, `guess-${i}@x.test`)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // Another network's client still signs in.
    expect((await signIn(app, '2001:db8:1:3::1', 'family@x.test')).statusCode).toBe(200);
    // IPv4 clients are one address each, as before.
    expect((await signIn(app, '192.0.2.10', 'a@x.test')).statusCode).toBe(200);
  });

  it('keys addresses by client', () => {
    expect(clientAddressKey('192.0.2.1')).toBe('192.0.2.1');
    expect(clientAddressKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(clientAddressKey('2001:DB8:0:0:1::5')).toBe('2001:db8:0:0::/64');
    expect(clientAddressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientAddressKey('2001:0db8:0001:0002:0003:0004:0005:0006')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('::1')).toBe('0:0:0:0::/64');
    expect(clientAddressKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
  });
});
