import { type BaseConfig, envNumber, loadConfig } from '@hs/service-kit';
import { storageEnvShape, storageSettingsFrom } from '@hs/storage';
import { z } from 'zod';
import { DEFAULT_MAX_ITEMS_PER_HOUSEHOLD } from './adapters/item-repository.ts';
import { DEFAULT_MAX_OUTFITS_PER_HOUSEHOLD } from './adapters/outfit-repository.ts';

const MIB = 1024 * 1024;

/** Settings of the wardrobe service on top of the shared ones (see README, configuration table). */
export function loadWardrobeConfig(env: NodeJS.ProcessEnv = process.env) {
  const base = loadConfig(
    'wardrobe',
    () => ({
      ...storageEnvShape(),
      UPLOAD_MAX_BYTES: envNumber(
        z
          .number()
          .int()
          .positive()
          .max(100 * MIB),
      ).default(10 * MIB),
      // Every image byte a household may keep (pending uploads count at their URL's limit).
      WARDROBE_MAX_UPLOAD_BYTES_PER_HOUSEHOLD: envNumber(
        z
          .number()
          .int()
          .min(MIB)
          .max(1024 * 1024 * MIB),
      ).default(2048 * MIB),
      // Unconfirmed upload URLs one member may hold at once (each holds UPLOAD_MAX_BYTES of the quota).
      WARDROBE_MAX_PENDING_UPLOADS_PER_MEMBER: envNumber(z.number().int().min(1).max(10_000)).default(20),
      UPLOAD_URL_TTL_SECONDS: envNumber(z.number().int().min(30).max(604_800)).default(900),
      // What one household may hold: one member must not fill the disk every household shares.
      WARDROBE_MAX_ITEMS_PER_HOUSEHOLD: envNumber(z.number().int().min(1).max(1_000_000)).default(
        DEFAULT_MAX_ITEMS_PER_HOUSEHOLD,
      ),
      WARDROBE_MAX_OUTFITS_PER_HOUSEHOLD: envNumber(z.number().int().min(1).max(1_000_000)).default(
        DEFAULT_MAX_OUTFITS_PER_HOUSEHOLD,
      ),
      CURATION_BACKEND: z.enum(['local', 'disabled']).default('local'),
    }),
    env,
  );
  const raw = base.raw;
  return {
    ...base,
    storage: storageSettingsFrom(raw, base.appEnv),
    uploads: {
      maxBytes: raw.UPLOAD_MAX_BYTES,
      maxBytesPerHousehold: raw.WARDROBE_MAX_UPLOAD_BYTES_PER_HOUSEHOLD,
      urlTtlSeconds: raw.UPLOAD_URL_TTL_SECONDS,
      maxPendingPerMember: raw.WARDROBE_MAX_PENDING_UPLOADS_PER_MEMBER,
      publicBaseUrl: base.publicBaseUrl,
    },
    curation: { backend: raw.CURATION_BACKEND },
    limits: {
      maxItemsPerHousehold: raw.WARDROBE_MAX_ITEMS_PER_HOUSEHOLD,
      maxOutfitsPerHousehold: raw.WARDROBE_MAX_OUTFITS_PER_HOUSEHOLD,
    },
  };
}

export type WardrobeConfig = ReturnType<typeof loadWardrobeConfig> & BaseConfig;
