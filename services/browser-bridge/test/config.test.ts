import { PRODUCTION_STORE, productionInternalTokens } from '@hs/testing';
import { describe, expect, it } from 'vitest';
import { loadBrowserBridgeConfig } from '../src/config.ts';

describe('browser-bridge configuration', () => {
  it('defaults to the simulated provider and unenforced signatures in development', () => {
    const config = loadBrowserBridgeConfig({});
    expect(config.browser.provider).toBe('simulated');
    expect(config.browser.enforceEventSignatures).toBe(false);
  });

  it('refuses BROWSER_PROVIDER=cloud without its key and project', () => {
    expect(() => loadBrowserBridgeConfig({ BROWSER_PROVIDER: 'cloud', BROWSER_API_KEY: 'k' })).toThrow(
      'Configuration error: BROWSER_PROVIDER=cloud needs BROWSER_API_KEY and BROWSER_PROJECT_ID',
    );
  });

  it('accepts BROWSER_PROVIDER=local with its session cap, and refuses private merchant hosts in production', () => {
    const config = loadBrowserBridgeConfig({ BROWSER_PROVIDER: 'local', BROWSER_MAX_SESSIONS: '2' });
    expect(config.browser).toMatchObject({
      provider: 'local',
      maxSessions: 2,
      chromiumPath: '/usr/bin/chromium',
    });
    expect(() =>
      loadBrowserBridgeConfig({
        APP_ENV: 'production',
        ...productionInternalTokens(),
        ...PRODUCTION_STORE,
        BROWSER_EVENT_SIGNING_SECRET: `whsec_${Buffer.from('k'.repeat(32)).toString('base64')}`,
        ALLOW_PRIVATE_MERCHANT_HOSTS: '127.0.0.1:9000',
      }),
    ).toThrow('Configuration error: ALLOW_PRIVATE_MERCHANT_HOSTS is not allowed when APP_ENV=production');
  });

  it('enforces signatures in production and refuses the development signing secret there', () => {
    const secrets = { ...productionInternalTokens(), ...PRODUCTION_STORE };
    expect(() => loadBrowserBridgeConfig({ APP_ENV: 'production', ...secrets })).toThrow(
      'Configuration error: BROWSER_EVENT_SIGNING_SECRET is the development placeholder, which is not allowed when APP_ENV=production',
    );
    const config = loadBrowserBridgeConfig({
      APP_ENV: 'production',
      ...secrets,
      BROWSER_EVENT_SIGNING_SECRET: `whsec_${Buffer.from('k'.repeat(32)).toString('base64')}`,
    });
    expect(config.browser.enforceEventSignatures).toBe(true);
  });
});
