import { ConfigError } from '@hs/service-kit';
import { PRODUCTION_STORE, productionInternalTokens } from '@hs/testing';
import { describe, expect, it } from 'vitest';
import { loadVtoConfig } from '../src/config.ts';

describe('vto configuration', () => {
  it('defaults to the simulated backend with a 10 MiB image cap', () => {
    const config = loadVtoConfig({});
    expect(config.vto).toMatchObject({
      backend: 'simulated',
      maxImageBytes: 10 * 1024 * 1024,
      fetchTimeoutMs: 10_000,
    });
    expect(config.storage).toMatchObject({ backend: 'local', localDir: './.data/artifacts' });
  });

  it('stops the boot when http has no endpoint, naming the variable', () => {
    expect(() => loadVtoConfig({ VTO_INFERENCE_BACKEND: 'http' })).toThrow(
      new ConfigError('Configuration error: VTO_HTTP_ENDPOINT is required when VTO_INFERENCE_BACKEND=http'),
    );
  });

  it('refuses an unknown backend', () => {
    expect(() => loadVtoConfig({ VTO_INFERENCE_BACKEND: 'magic' })).toThrow(
      /^Configuration error: VTO_INFERENCE_BACKEND/,
    );
  });

  it('refuses cloudstore without a bucket', () => {
    expect(() => loadVtoConfig({ ARTIFACT_STORAGE_BACKEND: 'cloudstore' })).toThrow(
      'Configuration error: ARTIFACT_BUCKET is required when ARTIFACT_STORAGE_BACKEND=cloudstore',
    );
  });

  it('refuses the development signing secret in production, like every service sharing ARTIFACT_LOCAL_DIR', () => {
    expect(() =>
      loadVtoConfig({ APP_ENV: 'production', ...productionInternalTokens(), ...PRODUCTION_STORE }),
    ).toThrow(
      new ConfigError(
        'Configuration error: ARTIFACT_SIGNING_SECRET is a development placeholder, which is not allowed when APP_ENV=production',
      ),
    );
  });
});
