import { PRODUCTION_STORE, productionInternalTokens } from '@hs/testing';
import { describe, expect, it } from 'vitest';
import { loadArtifactsAuditConfig } from '../src/config.ts';

const secret = 'x'.repeat(40);
const production = { ...productionInternalTokens(), ...PRODUCTION_STORE };

describe('configuration', () => {
  it('defaults to local storage under ./.data/artifacts', () => {
    const config = loadArtifactsAuditConfig({});
    expect(config.storage).toMatchObject({ backend: 'local', localDir: './.data/artifacts' });
    expect(config.artifacts).toMatchObject({ signedUrlTtlSeconds: 3600 });
  });

  it('requires a bucket for cloudstore', () => {
    expect(() => loadArtifactsAuditConfig({ ARTIFACT_STORAGE_BACKEND: 'cloudstore' })).toThrow(
      'Configuration error: ARTIFACT_BUCKET is required when ARTIFACT_STORAGE_BACKEND=cloudstore',
    );
  });

  it('refuses the development signing secret in production', () => {
    expect(() => loadArtifactsAuditConfig({ APP_ENV: 'production', ...production })).toThrow(
      'Configuration error: ARTIFACT_SIGNING_SECRET is a development placeholder, which is not allowed when APP_ENV=production',
    );
    expect(() =>
      loadArtifactsAuditConfig({ APP_ENV: 'production', ...production, ARTIFACT_SIGNING_SECRET: 'short' }),
    ).toThrow(
      'Configuration error: ARTIFACT_SIGNING_SECRET must be at least 32 bytes in staging and production',
    );
    expect(
      loadArtifactsAuditConfig({ APP_ENV: 'production', ...production, ARTIFACT_SIGNING_SECRET: secret })
        .storage.signingSecret,
    ).toBe(secret);
  });
});
