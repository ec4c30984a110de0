import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AppEnv, ConfigError } from '@hs/service-kit';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  asLocalStorage,
  createBlobStorageFromSettings,
  storageEnvShape,
  storageSettingsFrom,
  verifyLocalUploadSignature,
} from '../src/index.ts';

/** What a service's loadConfig does with the shape: parse the environment, then check it. */
const settingsFor = (env: Record<string, string>, appEnv: AppEnv = 'dev') =>
  storageSettingsFrom(z.object(storageEnvShape()).parse(env), appEnv);

const strong = 'x'.repeat(40);

describe('storage settings', () => {
  it('default to local files under ./.data/artifacts with the development secret', () => {
    expect(settingsFor({})).toEqual({
      backend: 'local',
      localDir: './.data/artifacts',
      bucket: undefined,
      apiEndpoint: undefined,
      projectId: undefined,
      signingSecret: 'dev-artifact-signing-secret-placeholder',
    });
  });

  it('read the cloudstore variables', () => {
    expect(
      settingsFor({
        ARTIFACT_STORAGE_BACKEND: 'cloudstore',
        ARTIFACT_BUCKET: 'b1',
        ARTIFACT_STORAGE_API_ENDPOINT: 'http://127.0.0.1:4443',
        GOOGLE_CLOUD_PROJECT: 'p1',
      }),
    ).toMatchObject({
      backend: 'cloudstore',
      bucket: 'b1',
      apiEndpoint: 'http://127.0.0.1:4443',
      projectId: 'p1',
    });
  });

  it('require a bucket for cloudstore', () => {
    expect(() => settingsFor({ ARTIFACT_STORAGE_BACKEND: 'cloudstore' })).toThrow(
      new ConfigError(
        'Configuration error: ARTIFACT_BUCKET is required when ARTIFACT_STORAGE_BACKEND=cloudstore',
      ),
    );
  });

  it('refuse a placeholder or short signing secret in staging and production only', () => {
    expect(() => settingsFor({}, 'staging')).toThrow(
      new ConfigError(
        'Configuration error: ARTIFACT_SIGNING_SECRET is a development placeholder, which is not allowed when APP_ENV=staging',
      ),
    );
    expect(() => settingsFor({ ARTIFACT_SIGNING_SECRET: 'short' }, 'production')).toThrow(
      new ConfigError(
        'Configuration error: ARTIFACT_SIGNING_SECRET must be at least 32 bytes in staging and production',
      ),
    );
    expect(settingsFor({ ARTIFACT_SIGNING_SECRET: strong }, 'production').signingSecret).toBe(strong);
    expect(settingsFor({ ARTIFACT_SIGNING_SECRET: 'short' }, 'test').signingSecret).toBe('short');
  });
});

describe('storage from settings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'storage-settings-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('local: signs URLs under the public base URL with ARTIFACT_SIGNING_SECRET', async () => {
    const settings = settingsFor({ ARTIFACT_LOCAL_DIR: dir, ARTIFACT_SIGNING_SECRET: strong });
    const storage = createBlobStorageFromSettings(settings, { publicBaseUrl: 'http://127.0.0.1:8080' });
    expect(asLocalStorage(storage)).not.toBeNull();
    expect(storage.refFor('households/h_1/a')).toBe('local://households/h_1/a');
    const signed = await storage.signUpload('households/h_1/a', {
      contentType: 'image/png',
      maxBytes: 10,
      expiresInSeconds: 60,
    });
    const url = new URL(signed.url);
    expect(url.origin + url.pathname).toBe('http://127.0.0.1:8080/api/v1/uploads/households/h_1/a');
    const query = Object.fromEntries(url.searchParams);
    const check = (secret: string) =>
      verifyLocalUploadSignature({
        secret,
        method: 'PUT',
        key: 'households/h_1/a',
        contentType: 'image/png',
        query,
      });
    expect(check(strong)).toEqual({ ok: true, maxBytes: 10 });
    expect(check('dev-artifact-signing-secret-placeholder')).toEqual({ ok: false, reason: 'invalid' });
  });

  const local = (dir: string) =>
    createBlobStorageFromSettings(settingsFor({ ARTIFACT_LOCAL_DIR: dir }), {
      publicBaseUrl: 'http://127.0.0.1:8080',
    });
  const refused = (problem: string, dir: string) =>
    new ConfigError(`Configuration error: ARTIFACT_LOCAL_DIR ${problem} (value: ${JSON.stringify(dir)})`);

  it('local: creates a missing ARTIFACT_LOCAL_DIR at boot and leaves nothing else in it', () => {
    const fresh = join(dir, 'not', 'yet');
    expect(local(fresh).backend).toBe('local');
    expect(existsSync(fresh)).toBe(true);
    expect(readdirSync(fresh)).toEqual([]);
  });

  it('local: refuses the boot, promptly, when ARTIFACT_LOCAL_DIR cannot be created', () => {
    expect(() => local('/proc/nope')).toThrow(
      refused('does not exist and cannot be created (ENOENT)', '/proc/nope'),
    );
    const dangling = join(dir, 'dangling');
    symlinkSync('/proc/nope', dangling);
    expect(() => local(dangling)).toThrow(refused('does not exist and cannot be created (ENOENT)', dangling));
  });

  it('local: refuses the boot when ARTIFACT_LOCAL_DIR is a file or not writable', () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    expect(() => local(file)).toThrow(refused('is not a directory', file));
    expect(() => local('/proc/self')).toThrow(/^Configuration error: ARTIFACT_LOCAL_DIR is not writable \(E/);
  });

  it.skipIf(process.getuid?.() === 0)('local: refuses a read-only ARTIFACT_LOCAL_DIR (chmod 0555)', () => {
    const readonly = join(dir, 'readonly');
    local(readonly);
    chmodSync(readonly, 0o555);
    try {
      expect(() => local(readonly)).toThrow(refused('is not writable (EACCES)', readonly));
    } finally {
      chmodSync(readonly, 0o755);
    }
  });

  it('cloudstore: refers to objects in the configured bucket', () => {
    const storage = createBlobStorageFromSettings(
      settingsFor({
        ARTIFACT_STORAGE_BACKEND: 'cloudstore',
        ARTIFACT_BUCKET: 'b1',
        GOOGLE_CLOUD_PROJECT: 'p1',
      }),
      { publicBaseUrl: 'http://127.0.0.1:8080' },
    );
    expect(storage.backend).toBe('cloudstore');
    expect(asLocalStorage(storage)).toBeNull();
    expect(storage.refFor('households/h_1/a')).toBe('gs://b1/households/h_1/a');
  });
});
