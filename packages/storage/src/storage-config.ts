// The one reading of the blob storage settings, shared by every service that reads or writes
// blobs (wardrobe, vto, artifacts-audit). Services sharing ARTIFACT_LOCAL_DIR must also share
// ARTIFACT_SIGNING_SECRET: a URL one of them signs is checked by whichever serves it.
import { type AppEnv, configProblem, httpUrl, isProductionLike, writableDirProblem } from '@hs/service-kit';
import { z } from 'zod';
import { createBlobStorage } from './create-blob-storage.ts';
import type { BlobStorage } from './types.ts';

/** The development placeholder for ARTIFACT_SIGNING_SECRET; refused in staging and production. */
export const DEV_ARTIFACT_SIGNING_SECRET = 'dev-artifact-signing-secret-placeholder';

/** The storage variables, to spread into a service's `loadConfig` extra shape. */
export function storageEnvShape() {
  return {
    ARTIFACT_STORAGE_BACKEND: z.enum(['local', 'cloudstore']).default('local'),
    ARTIFACT_LOCAL_DIR: z.string().min(1).default('./.data/artifacts'),
    ARTIFACT_BUCKET: z.string().min(1).optional(),
    /** Another Cloud Storage JSON API endpoint (tests: a local fake); no auth is sent to it. */
    ARTIFACT_STORAGE_API_ENDPOINT: httpUrl().optional(),
    GOOGLE_CLOUD_PROJECT: z.string().min(1).optional(),
    /** HMAC secret of the local backend's signed URLs (and artifacts-audit's content links). */
    ARTIFACT_SIGNING_SECRET: z.string().min(1).default(DEV_ARTIFACT_SIGNING_SECRET),
  };
}

export type StorageEnv = z.infer<z.ZodObject<ReturnType<typeof storageEnvShape>>>;

export type StorageSettings = {
  localDir: string;
  signingSecret: string;
  apiEndpoint: string | undefined;
  projectId: string | undefined;
} & ({ backend: 'local'; bucket: string | undefined } | { backend: 'cloudstore'; bucket: string });

/** Checks what a schema cannot see alone; a wrong setting is a configProblem naming the variable. */
export function storageSettingsFrom(raw: StorageEnv, appEnv: AppEnv): StorageSettings {
  const secret = raw.ARTIFACT_SIGNING_SECRET;
  if (isProductionLike(appEnv)) {
    if (secret.startsWith('dev-'))
      configProblem(
        `ARTIFACT_SIGNING_SECRET is a development placeholder, which is not allowed when APP_ENV=${appEnv}`,
      );
    if (Buffer.byteLength(secret) < 32)
      configProblem('ARTIFACT_SIGNING_SECRET must be at least 32 bytes in staging and production');
  }
  const common = {
    localDir: raw.ARTIFACT_LOCAL_DIR,
    signingSecret: secret,
    apiEndpoint: raw.ARTIFACT_STORAGE_API_ENDPOINT,
    projectId: raw.GOOGLE_CLOUD_PROJECT,
  };
  if (raw.ARTIFACT_STORAGE_BACKEND === 'local')
    return { ...common, backend: 'local', bucket: raw.ARTIFACT_BUCKET };
  if (!raw.ARTIFACT_BUCKET)
    configProblem('ARTIFACT_BUCKET is required when ARTIFACT_STORAGE_BACKEND=cloudstore');
  return { ...common, backend: 'cloudstore', bucket: raw.ARTIFACT_BUCKET ?? '' };
}

/**
 * The storage the settings describe; `publicBaseUrl` is where clients reach the local upload route.
 * Local: ARTIFACT_LOCAL_DIR must exist or be creatable and be writable, else ConfigError (the
 * boot stops with one line). A full disk is not refused: it may free up; until then writes
 * answer 503.
 */
export function createBlobStorageFromSettings(
  settings: StorageSettings,
  options: {
    publicBaseUrl: string;
    /** Where the start-up clean-up of a crash's upload files is reported (one line when it did anything). */
    logger?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void } | undefined;
  },
): BlobStorage {
  if (settings.backend === 'local') {
    const problem = writableDirProblem(settings.localDir);
    if (problem) configProblem(`ARTIFACT_LOCAL_DIR ${problem} (value: ${JSON.stringify(settings.localDir)})`);
    return createBlobStorage({
      backend: 'local',
      dir: settings.localDir,
      signingSecret: settings.signingSecret,
      publicBaseUrl: options.publicBaseUrl,
      onAbandonedWrites: (outcome) => {
        if (outcome.failed > 0)
          options.logger?.warn(outcome, 'could not remove the temporary files of uploads cut off by a crash');
        else if (outcome.removed > 0)
          options.logger?.info(outcome, 'removed the temporary files of uploads cut off by a crash');
      },
    });
  }
  return createBlobStorage({
    backend: 'cloudstore',
    bucket: settings.bucket,
    ...(settings.apiEndpoint ? { apiEndpoint: settings.apiEndpoint } : {}),
    ...(settings.projectId ? { projectId: settings.projectId } : {}),
  });
}
