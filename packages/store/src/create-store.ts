import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { withCheckedIds } from './checked-ids.ts';
import { createFirestoreStore } from './firestore-store.ts';
import { createMemoryStore } from './memory-store.ts';
import { assertCollectionOptions } from './names.ts';
import { createSqliteStore } from './sqlite-store.ts';
import type { Store } from './types.ts';

export type StoreConfig =
  | { backend: 'inmemory' }
  | { backend: 'sqlite'; file: string; maxSizeBytes?: number | undefined }
  | {
      backend: 'docstore';
      projectId: string;
      databaseId?: string;
      /** Collection-id prefix so several services or test runs can share one database. */
      namespace?: string;
    };

export function createStore(config: StoreConfig): Store {
  const store = openBackend(config);
  // Id and option rules are enforced once, here, so every backend accepts and rejects the same.
  return {
    backend: store.backend,
    collection: (name, options) => {
      assertCollectionOptions(options);
      return withCheckedIds(store.collection(name, options));
    },
    ping: () => store.ping(),
    close: () => store.close(),
  };
}

function openBackend(config: StoreConfig): Store {
  switch (config.backend) {
    case 'inmemory':
      return createMemoryStore();
    case 'sqlite':
      return createSqliteStore(config.file, { maxSizeBytes: config.maxSizeBytes });
    case 'docstore':
      return createFirestoreStore(config);
    default:
      throw new Error(`Unknown store backend ${JSON.stringify((config as { backend: unknown }).backend)}`);
  }
}

export interface StoreEnv {
  /** PERSISTENCE_BACKEND: inmemory (default), sqlite or docstore. */
  backend?: string | undefined;
  /** DATA_DIR for the sqlite file (default `.data`); created when missing. */
  dataDir?: string | undefined;
  /** SQLITE_MAX_SIZE_MB in bytes: the sqlite file's cap (PRAGMA max_page_count). */
  sqliteMaxSizeBytes?: number | undefined;
  /** Service name; the sqlite file is `${dataDir}/${service}.sqlite`. */
  service: string;
  firestoreProjectId?: string | undefined;
  firestoreDatabaseId?: string | undefined;
  firestoreNamespace?: string | undefined;
}

const BACKENDS = ['inmemory', 'sqlite', 'docstore'] as const;

/** The collection-name prefix of a service's documents in a shared Firestore database. */
export const firestoreNamespaceOf = (service: string) => `${service}_`;

/** Maps a service's environment to a StoreConfig; throws with a readable message when invalid. */
export function storeConfigFromEnv(env: StoreEnv): StoreConfig {
  const backend = env.backend?.trim() || 'inmemory';
  switch (backend) {
    case 'inmemory':
      return { backend };
    case 'sqlite': {
      if (!/^[A-Za-z0-9_-]+$/.test(env.service))
        throw new Error(`Invalid service name ${JSON.stringify(env.service)}`);
      const dataDir = env.dataDir?.trim() || '.data';
      mkdirSync(dataDir, { recursive: true });
      return { backend, file: join(dataDir, `${env.service}.sqlite`), maxSizeBytes: env.sqliteMaxSizeBytes };
    }
    case 'docstore': {
      const projectId = env.firestoreProjectId?.trim();
      if (!projectId) throw new Error('PERSISTENCE_BACKEND=docstore needs a Firestore project id');
      return {
        backend,
        projectId,
        ...(env.firestoreDatabaseId ? { databaseId: env.firestoreDatabaseId } : {}),
        // Services may share one Firestore database: each one's collections carry its name as a
        // prefix (`gateway_households`), so two services' outboxes never mix.
        namespace: env.firestoreNamespace ?? firestoreNamespaceOf(env.service),
      };
    }
    default:
      throw new Error(
        `PERSISTENCE_BACKEND must be one of ${BACKENDS.join(', ')} (got ${JSON.stringify(backend)})`,
      );
  }
}
