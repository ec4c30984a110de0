// Writes services/<svc>/firestore.indexes.json from the collection options each service's code
// passes to `store.collection` (plus the outboxes it runs), so the composite indexes deployed
// to Firestore are exactly the ones the code declares.
//   node --conditions=@hs/source scripts/firestore-indexes.ts          regenerate every file
//   node --conditions=@hs/source scripts/firestore-indexes.ts --check  exit 1 when one is stale
// test/firestore-indexes.test.ts runs the same comparison.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import {
  type CollectionOptions,
  type FirestoreIndexFile,
  firestoreIndexDefinitions,
  firestoreNamespaceOf,
} from '@hs/store';
import { AUDIT_OUTBOX_COLLECTIONS } from '../packages/audit-client/src/index.ts';
import { ARTIFACT_COLLECTIONS } from '../services/artifacts-audit/src/adapters/artifact-repository.ts';
import { AUDIT_LEDGER_COLLECTIONS } from '../services/artifacts-audit/src/adapters/audit-ledger.ts';
import { BRIDGE_INSTANCE_COLLECTIONS } from '../services/browser-bridge/src/adapters/bridge-instances.ts';
import { RECORDING_OUTBOX_COLLECTIONS } from '../services/browser-bridge/src/adapters/recordings.ts';
import { SEEN_WEBHOOK_ID_COLLECTIONS } from '../services/browser-bridge/src/adapters/seen-webhook-ids.ts';
import { BROWSER_SESSION_COLLECTIONS } from '../services/browser-bridge/src/adapters/session-repository.ts';
import { GATEWAY_CALLBACK_OUTBOX_COLLECTIONS } from '../services/cartprep/src/adapters/gateway-callbacks.ts';
import { CARTPREP_JOB_COLLECTIONS } from '../services/cartprep/src/adapters/job-repository.ts';
import { OFFER_COLLECTIONS } from '../services/commerce/src/adapters/offer-repository.ts';
import { CHECKOUT_TOKEN_COLLECTIONS } from '../services/gateway/src/adapters/checkout-token-store.ts';
import { HOUSEHOLD_COLLECTIONS } from '../services/gateway/src/adapters/household-repository.ts';
import { IDEMPOTENCY_COLLECTIONS } from '../services/gateway/src/adapters/idempotency-store.ts';
import { PURCHASE_REQUEST_COLLECTIONS } from '../services/gateway/src/adapters/purchase-request-repository.ts';
import { RATE_LIMIT_COLLECTIONS } from '../services/gateway/src/adapters/rate-limit-store.ts';
import { ARTIFACT_OUTBOX_COLLECTIONS } from '../services/orchestrator/src/adapters/artifact-writer.ts';
import { BROWSER_CLOSE_OUTBOX_COLLECTIONS } from '../services/orchestrator/src/adapters/browser-closer.ts';
import { EVENT_LOG_COLLECTIONS } from '../services/orchestrator/src/adapters/event-log.ts';
import { MISSION_COLLECTIONS } from '../services/orchestrator/src/adapters/mission-repository.ts';
import { VTO_JOB_COLLECTIONS } from '../services/vto/src/adapters/job-repository.ts';
import { WARDROBE_COLLECTIONS } from '../services/wardrobe/src/adapters/item-repository.ts';
import { UPLOAD_USAGE_COLLECTIONS } from '../services/wardrobe/src/adapters/upload-usage-repository.ts';

type Collections = Record<string, CollectionOptions>;

/**
 * Per service, the exported collection-option constants its code opens collections with, by
 * their names in the source (test/firestore-indexes.test.ts checks every constant a service's
 * `store.collection` calls use is listed here). Collections opened without options have no
 * queries that need an index and are not listed.
 */
export const SERVICE_COLLECTIONS: Record<string, Record<string, Collections>> = {
  'artifacts-audit': { ARTIFACT_COLLECTIONS, AUDIT_LEDGER_COLLECTIONS },
  'browser-bridge': {
    BROWSER_SESSION_COLLECTIONS,
    SEEN_WEBHOOK_ID_COLLECTIONS,
    RECORDING_OUTBOX_COLLECTIONS,
    AUDIT_OUTBOX_COLLECTIONS,
    BRIDGE_INSTANCE_COLLECTIONS,
  },
  cartprep: { CARTPREP_JOB_COLLECTIONS, GATEWAY_CALLBACK_OUTBOX_COLLECTIONS, AUDIT_OUTBOX_COLLECTIONS },
  commerce: { OFFER_COLLECTIONS },
  gateway: {
    HOUSEHOLD_COLLECTIONS,
    PURCHASE_REQUEST_COLLECTIONS,
    IDEMPOTENCY_COLLECTIONS,
    RATE_LIMIT_COLLECTIONS,
    AUDIT_OUTBOX_COLLECTIONS,
    CHECKOUT_TOKEN_COLLECTIONS,
  },
  orchestrator: {
    MISSION_COLLECTIONS,
    EVENT_LOG_COLLECTIONS,
    AUDIT_OUTBOX_COLLECTIONS,
    ARTIFACT_OUTBOX_COLLECTIONS,
    BROWSER_CLOSE_OUTBOX_COLLECTIONS,
  },
  vto: { VTO_JOB_COLLECTIONS, AUDIT_OUTBOX_COLLECTIONS },
  wardrobe: { WARDROBE_COLLECTIONS, UPLOAD_USAGE_COLLECTIONS },
};

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

export const indexFilePath = (service: string): string =>
  join(REPO_ROOT, 'services', service, 'firestore.indexes.json');

/** One service's collections; a name declared twice must not silently lose one declaration. */
export function serviceCollections(service: string): Collections {
  const merged: Collections = {};
  for (const [source, collections] of Object.entries(SERVICE_COLLECTIONS[service] ?? {})) {
    for (const [name, options] of Object.entries(collections)) {
      if (name in merged) throw new Error(`${service}: collection ${name} is declared twice (${source})`);
      merged[name] = options;
    }
  }
  return merged;
}

/** The file every service should ship; null for a service whose queries need no composite index. */
export function expectedIndexFile(service: string): FirestoreIndexFile | null {
  // Collections carry the service's prefix (storeConfigFromEnv), as the docstore backend names them.
  const file = firestoreIndexDefinitions(serviceCollections(service), firestoreNamespaceOf(service));
  return file.indexes.length > 0 ? file : null;
}

function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export const render = (file: FirestoreIndexFile): string => `${JSON.stringify(file, null, 2)}\n`;

/** Services whose shipped file differs from (or is missing / superfluous against) the generated one. */
export function staleServices(): string[] {
  const stale: string[] = [];
  for (const service of Object.keys(SERVICE_COLLECTIONS)) {
    const expected = expectedIndexFile(service);
    const path = indexFilePath(service);
    const shipped = existsSync(path) ? parseOrNull(readFileSync(path, 'utf8')) : undefined;
    // Compared as JSON, so reformatting a file (biome) does not make it stale.
    if (expected === null ? shipped !== undefined : !isDeepStrictEqual(shipped, expected))
      stale.push(service);
  }
  return stale;
}

function main(): void {
  if (process.argv.includes('--check')) {
    const stale = staleServices();
    if (stale.length > 0) {
      console.error(
        `Stale firestore.indexes.json: ${stale.join(', ')}. Regenerate: node --conditions=@hs/source scripts/firestore-indexes.ts`,
      );
      process.exit(1);
    }
    console.log('firestore.indexes.json files are up to date');
    return;
  }
  for (const service of Object.keys(SERVICE_COLLECTIONS)) {
    const expected = expectedIndexFile(service);
    const path = indexFilePath(service);
    if (expected) writeFileSync(path, render(expected));
    else rmSync(path, { force: true });
    console.log(`${service}: ${expected ? `${expected.indexes.length} composite indexes` : 'none needed'}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
