import { PRODUCTION_STORE, productionInternalTokens } from '@hs/testing';
import { describe, expect, it } from 'vitest';
import { loadBrowserBridgeConfig } from '../src/config.ts';

describe('browser-bridge configuration', () => {
  it('defaults to the simulated provider and unenforced signatures in development', () => {
    const config = loadBrowserBridgeConfig({});
    expect(config.browser.provider).toBe('simulated');
    expect(config.browser.enforceEventSignatures).toBe(false);
  });

  it.each(['local', 'cloud'])('refuses BROWSER_PROVIDER=%s with one clear line', (provider) => {
    expect(() => loadBrowserBridgeConfig({ BROWSER_PROVIDER: provider })).toThrow(
      `Configuration error: BROWSER_PROVIDER=${provider} is not built yet (use BROWSER_PROVIDER=simulated)`,
    );
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
