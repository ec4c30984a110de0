import { ServiceName } from '@hs/contracts';

/** Every service's `<SERVICE>_INTERNAL_TOKEN`, distinct and long enough for APP_ENV=production. */
export function productionInternalTokens(): Record<string, string> {
  return Object.fromEntries(
    ServiceName.options.map((s) => {
      const prefix = s.toUpperCase().replace(/-/g, '_');
      return [`${prefix}_INTERNAL_TOKEN`, `production-secret-for-${prefix}-xxxxxxxxxxxxxxxx`];
    }),
  );
}

/** A durable store setting for production-like configs (the inmemory default is refused there). */
export const PRODUCTION_STORE = {
  PERSISTENCE_BACKEND: 'docstore',
  FIRESTORE_PROJECT_ID: 'test-project',
} as const;
