import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '@hs/testing';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

function boot(service: string, env: Record<string, string>) {
  const result = spawnSync(
    process.execPath,
    ['--conditions=@hs/source', join(REPO_ROOT, 'services', service, 'src', 'server.ts')],
    { env: { PATH: process.env.PATH ?? '', PORT: '0', ...env }, encoding: 'utf8', timeout: 15_000 },
  );
  return { status: result.status, stderr: result.stderr.trim() };
}

describe('configuration', () => {
  it('builds handed-out URLs on PUBLIC_BASE_URL, by default the gateway on loopback, never a peer address', () => {
    const internal = { GATEWAY_BASE_URL: 'http://gateway.internal:8080' };
    expect(loadConfig('wardrobe', () => ({}), internal).publicBaseUrl).toBe('http://127.0.0.1:8080');
    expect(loadConfig('gateway', () => ({}), { PORT: '9090' }).publicBaseUrl).toBe('http://127.0.0.1:9090');
    const set = { ...internal, PUBLIC_BASE_URL: 'https://styling.example.test/' };
    for (const service of ['gateway', 'wardrobe', 'vto', 'browser-bridge', 'artifacts-audit'] as const)
      expect(loadConfig(service, () => ({}), set).publicBaseUrl).toBe('https://styling.example.test');
    expect(() => loadConfig('vto', () => ({}), { PUBLIC_BASE_URL: 'ftp://x.test' })).toThrow(ConfigError);
  });

  it('parses defaults into a typed object', () => {
    const config = loadConfig('commerce', () => ({}), {});
    expect(config.port).toBe(8083);
    expect(config.internalTimeoutMs).toBe(10_000);
    expect(config.peers.gateway).toEqual({
      baseUrl: 'http://127.0.0.1:8080',
      token: 'dev-internal-token-gateway',
    });
    expect(config.internalToken).toBe('dev-internal-token-commerce');
    expect(config.persistence.backend).toBe('inmemory');
  });

  it('names the variable of a wrong value', () => {
    expect(() => loadConfig('commerce', () => ({}), { PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig('commerce', () => ({}), { PORT: 'eighty' })).toThrow(
      /^Configuration error: PORT .*"eighty"/,
    );
    expect(() => loadConfig('commerce', () => ({}), { PERSISTENCE_BACKEND: 'mongo' })).toThrow(
      /PERSISTENCE_BACKEND/,
    );
  });

  it('hides secret values in the message', () => {
    expect(() =>
      loadConfig('commerce', () => ({}), { APP_ENV: 'production', COMMERCE_INTERNAL_TOKEN: 'short' }),
    ).toThrow(/INTERNAL_TOKEN .*\(value: (set|unset)\)/);
  });

  it('requires real internal tokens in staging and production', () => {
    expect(() => loadConfig('commerce', () => ({}), { APP_ENV: 'staging' })).toThrow(
      /_INTERNAL_TOKEN is required/,
    );
  });
});

describe('boot refusals (real processes)', () => {
  const strongTokens = Object.fromEntries(
    [
      'GATEWAY',
      'ORCHESTRATOR',
      'WARDROBE',
      'COMMERCE',
      'VTO',
      'CARTPREP',
      'BROWSER_BRIDGE',
      'ARTIFACTS_AUDIT',
    ].map((s) => [`${s}_INTERNAL_TOKEN`, `${s.toLowerCase()}-token-0123456789abcdef0123456789`]),
  );
  const production = {
    APP_ENV: 'production',
    ...strongTokens,
    AUTH_MODE: 'oidc',
    OIDC_ISSUER: 'https://issuer.example.com',
    OIDC_AUDIENCE: 'app',
    BUYFLOW_INTERNAL_TOKEN: 'buyflow-token-0123456789abcdef0123456789',
    PERSISTENCE_BACKEND: 'docstore',
    FIRESTORE_PROJECT_ID: 'test-project',
  };

  it('refuses the inmemory store (the default) in staging and production with one line', () => {
    const { PERSISTENCE_BACKEND: _durable, ...withDefaultStore } = production;
    for (const env of [withDefaultStore, { ...production, PERSISTENCE_BACKEND: 'inmemory' }]) {
      const { status, stderr } = boot('commerce', env);
      expect(status).toBe(1);
      expect(stderr).toBe(
        'commerce: Configuration error: PERSISTENCE_BACKEND=inmemory (the default; every write is lost on restart, use sqlite or docstore) is not allowed when APP_ENV=production',
      );
    }
    expect(() =>
      loadConfig('commerce', () => ({}), {
        ...strongTokens,
        APP_ENV: 'staging',
        PERSISTENCE_BACKEND: 'inmemory',
      }),
    ).toThrow(
      'PERSISTENCE_BACKEND=inmemory (the default; every write is lost on restart, use sqlite or docstore) is not allowed when APP_ENV=staging',
    );
  });

  it('stops the gateway with one line for the development JWT secret in production', () => {
    const { status, stderr } = boot('gateway', production);
    expect(status).toBe(1);
    expect(stderr.split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/AUTH_JWT_SECRET is the development placeholder/);
  });

  it('stops the gateway for a short secret and for AUTH_MODE=dev in production', () => {
    expect(boot('gateway', { ...production, AUTH_JWT_SECRET: 'too-short' }).stderr).toMatch(
      /AUTH_JWT_SECRET must be at least 32 bytes/,
    );
    expect(
      boot('gateway', { ...production, AUTH_JWT_SECRET: 'x'.repeat(40), AUTH_MODE: 'dev' }).stderr,
    ).toMatch(/AUTH_MODE=dev is not allowed/);
  });

  it('stops any service with one line naming a wrong variable', () => {
    const { status, stderr } = boot('commerce', { INTERNAL_API_TIMEOUT_SECONDS: 'soon' });
    expect(status).toBe(1);
    expect(stderr).toMatch(/^commerce: Configuration error: INTERNAL_API_TIMEOUT_SECONDS/);
    expect(stderr.split('\n')).toHaveLength(1);
  });
});
