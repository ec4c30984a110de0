import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ConfigError } from '@hs/service-kit';
import { REPO_ROOT } from '@hs/testing';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../src/config.ts';
import { buildGateway } from './gateway-harness.ts';

function problemOf(trustProxy: string): string {
  try {
    loadGatewayConfig({ APP_ENV: 'test', TRUST_PROXY: trustProxy });
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  return 'booted';
}

describe('TRUST_PROXY', () => {
  it('refuses, naming TRUST_PROXY and the entry, what proxy-addr would crash the boot on', () => {
    const cases: Array<[string, string]> = [
      ['abc', '"abc" is not an address, a CIDR or a range name'],
      ['10.0.0.0/33', '"10.0.0.0/33" has a prefix length outside 1-32'],
      ['127.0.0.1,abc', '"abc" is not an address, a CIDR or a range name'],
      ['::1/129', '"::1/129" has a prefix length outside 1-128'],
      ['10.0.0.0/0', '"10.0.0.0/0" has a prefix length outside 1-32'],
      ['10.0.0.0/255.0.255.0', '"10.0.0.0/255.0.255.0" has a prefix length outside 1-32'],
      ['10.0.0.0/', '"10.0.0.0/" has a prefix length outside 1-32'],
      ['999.0.0.1', '"999.0.0.1" is not an address'],
      ['127.0.0.1,,10.0.0.1', 'it has an empty entry'],
      ['100', '"100" is not an address'],
      ['localhost', '"localhost" is not an address'],
    ];
    for (const [value, why] of cases) {
      const message = problemOf(value);
      expect(message, value).toMatch(/^Configuration error: TRUST_PROXY must be a hop count/);
      expect(message, value).toContain(why);
      expect(message, value).toContain(`(value: ${JSON.stringify(value)})`);
    }
  });

  it('takes hop counts, addresses, CIDRs, netmasks and proxy-addr range names, which Fastify then accepts', async () => {
    const accepted = [
      '0',
      '1',
      '10.0.2.1',
      '127.0.0.1, 10.0.0.0/8',
      '::1',
      '2001:db8::/32',
      '::ffff:10.0.0.1',
      '10.0.0.0/255.0.0.0',
      'loopback,linklocal,uniquelocal',
      '10.0.0.0/32,::1/128',
    ];
    for (const value of accepted) {
      const config = loadGatewayConfig({ APP_ENV: 'test', TRUST_PROXY: value });
      // What the gateway hands Fastify (createApp): it compiles the list at construction.
      const app = Fastify(config.trustProxy ? { trustProxy: config.trustProxy } : {});
      await app.ready();
      await app.close();
    }
  });

  it('a wrong value stops the real boot with one line naming TRUST_PROXY, no stack trace', () => {
    const result = spawnSync(
      process.execPath,
      ['--conditions=@hs/source', join(REPO_ROOT, 'services', 'gateway', 'src', 'server.ts')],
      {
        env: { PATH: process.env.PATH ?? '', PORT: '0', APP_ENV: 'test', TRUST_PROXY: '127.0.0.1,abc' },
        encoding: 'utf8',
        timeout: 15_000,
        killSignal: 'SIGKILL',
      },
    );
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(
      'gateway: Configuration error: TRUST_PROXY must be a hop count (0-99) or comma-separated proxy addresses, ' +
        'CIDRs (10.0.0.0/8) or range names (loopback, linklocal, uniquelocal); "abc" is not an address, a CIDR ' +
        'or a range name (value: "127.0.0.1,abc")',
    );
  });

  it('a hop count gives each client behind the proxy its own address (its own sign-in limit)', async () => {
    const gateway = await buildGateway({ TRUST_PROXY: '1', RATE_LIMIT_LOGIN_PER_MINUTE: '2' });
    try {
      const login = (forwardedFor: string) =>
        gateway.inject({
          method: 'POST',
          url: '/api/v1/auth/login',
          headers: { 'x-forwarded-for': forwardedFor },
          payload: { idToken: `hops-${forwardedFor}@x.test` },
        });
      // The ingress (the socket's address) appends the client it saw; what the client wrote before
      // that is not trusted.
      expect((await login('9.9.9.9, 203.0.113.7')).statusCode).toBe(200);
      expect((await login('8.8.8.8, 203.0.113.7')).statusCode).toBe(200);
      expect((await login('203.0.113.7')).statusCode).toBe(429);
      // Another family behind the same ingress is not held back by that one.
      expect((await login('198.51.100.20')).statusCode).toBe(200);
    } finally {
      await gateway.close();
    }
  });
});
