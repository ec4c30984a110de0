// Do the shipped composite indexes serve the queries the services really run?
//
// The Firestore emulator serves every query without any index, so a missing composite index
// only shows up in production (FAILED_PRECONDITION "The query requires an index"). Instead, the
// repositories run their queries against the real docstore backend code
// (packages/store/src/firestore-collection.ts) over a recording stand-in for the Firestore SDK;
// each recorded query (filters + orderBy, as it would be sent) is turned into the composite
// index Firestore needs by `requiredIndex` and looked up in the service's generated file.
// What this cannot check: Firestore's real query planner (modelled below, conservatively), and
// queries of code paths not listed in SCENARIOS.
import type { OfferSearchConstraints } from '@hs/contracts';
import type { Collection, CollectionOptions, Doc, FirestoreIndexField, Store } from '@hs/store';
import { firestoreNamespaceOf } from '@hs/store';
import { describe, expect, it } from 'vitest';
import { createOutbox } from '../packages/outbox/src/index.ts';
import { firestoreCollection } from '../packages/store/src/firestore-collection.ts';
import type { FirestoreContext } from '../packages/store/src/firestore-store.ts';
import { expectedIndexFile, SERVICE_COLLECTIONS, serviceCollections } from '../scripts/firestore-indexes.ts';
import { createArtifactRepository } from '../services/artifacts-audit/src/adapters/artifact-repository.ts';
import { createAuditLedger } from '../services/artifacts-audit/src/adapters/audit-ledger.ts';
import { createSeenWebhookIds } from '../services/browser-bridge/src/adapters/seen-webhook-ids.ts';
import { createJobRepository as createCartprepJobs } from '../services/cartprep/src/adapters/job-repository.ts';
import { createOfferRepository } from '../services/commerce/src/adapters/offer-repository.ts';
import { planOfferSearch } from '../services/commerce/src/domain/offer-search-plan.ts';
import { createHouseholdRepository } from '../services/gateway/src/adapters/household-repository.ts';
import { createIdempotencyStore } from '../services/gateway/src/adapters/idempotency-store.ts';
import { createPurchaseRequestRepository } from '../services/gateway/src/adapters/purchase-request-repository.ts';
import { createUserDirectory } from '../services/gateway/src/adapters/user-directory.ts';
import { createEventLog } from '../services/orchestrator/src/adapters/event-log.ts';
import { createMissionRepository } from '../services/orchestrator/src/adapters/mission-repository.ts';
import { createJobRepository as createVtoJobs } from '../services/vto/src/adapters/job-repository.ts';
import { createCollectionRepository } from '../services/wardrobe/src/adapters/collection-repository.ts';
import { createItemRepository } from '../services/wardrobe/src/adapters/item-repository.ts';
import { createOutfitRepository } from '../services/wardrobe/src/adapters/outfit-repository.ts';

type Direction = 'asc' | 'desc';
/** One query as the docstore backend sends it: filters in order, then orderBy (ending in __name__). */
export interface QueryShape {
  collection: string;
  filters: [field: string, op: string][];
  orderBy: [field: string, direction: Direction][];
}
/** A composite index a query needs: `prefix` fields in any order, then `order` exactly. */
export interface RequiredIndex {
  prefix: FirestoreIndexField[];
  order: { fieldPath: string; direction: Direction }[];
}

const EQUALITY = new Set(['==', 'in']);
const ARRAY = new Set(['array-contains', 'array-contains-any']);
const NAME = '__name__';

/**
 * The composite index Firestore needs for a query, or null when its automatic single-field
 * indexes serve it. Firestore's rules as modelled here: the effective order is the explicit
 * orderBy, then inequality-filtered fields not ordered yet (ascending), then `__name__`; a single
 * field ordered like its `__name__` tie-break, or equality filters alone (index merging), need
 * nothing more. Array filters are treated conservatively: with any other field they always ask
 * for a composite index.
 */
export function requiredIndex(shape: QueryShape): RequiredIndex | null {
  const explicit = shape.orderBy.filter(([field]) => field !== NAME);
  const nameDirection = shape.orderBy.find(([field]) => field === NAME)?.[1] ?? explicit.at(-1)?.[1] ?? 'asc';
  const order = explicit.map(([fieldPath, direction]) => ({ fieldPath, direction }));
  for (const [field, op] of shape.filters) {
    if (!EQUALITY.has(op) && !ARRAY.has(op) && !order.some((o) => o.fieldPath === field))
      order.push({ fieldPath: field, direction: 'asc' });
  }
  const prefix: FirestoreIndexField[] = [];
  for (const [fieldPath, op] of shape.filters) {
    if (prefix.some((f) => f.fieldPath === fieldPath)) continue;
    if (ARRAY.has(op)) prefix.push({ fieldPath, arrayConfig: 'CONTAINS' });
    else if (EQUALITY.has(op)) prefix.push({ fieldPath, order: 'ASCENDING' });
  }
  const hasArray = prefix.some((f) => 'arrayConfig' in f);
  if (order.length === 0 && nameDirection === 'asc' && (!hasArray || prefix.length === 1)) return null;
  const fields = new Set([...prefix.map((f) => f.fieldPath), ...order.map((o) => o.fieldPath)]);
  // One field, tie-broken in its own direction: the single-field index (either direction).
  if (fields.size === 1 && order.length === 1 && order[0]!.direction === nameDirection && !hasArray)
    return null;
  // `__name__` is implied in the direction of the last ordered field; otherwise it is explicit.
  if (nameDirection !== (order.at(-1)?.direction ?? 'asc'))
    order.push({ fieldPath: NAME, direction: nameDirection });
  return { prefix, order };
}

const directionOf = (f: FirestoreIndexField): Direction | 'contains' =>
  'arrayConfig' in f ? 'contains' : f.order === 'ASCENDING' ? 'asc' : 'desc';

/** True when the index serves the requirement (equality fields in any order, either direction). */
export function indexServes(fields: readonly FirestoreIndexField[], need: RequiredIndex): boolean {
  const head = fields.slice(0, need.prefix.length);
  let tail = fields.slice(need.prefix.length);
  const last = need.order.at(-1);
  // An explicit trailing __name__ in the tie-break's own direction is the same index.
  const lastField = tail.at(-1);
  if (lastField?.fieldPath === NAME && last?.fieldPath !== NAME && tail.length === need.order.length + 1) {
    const implied = last?.direction ?? 'asc';
    if (directionOf(lastField) !== implied) return false;
    tail = tail.slice(0, -1);
  }
  const headOk =
    head.length === need.prefix.length &&
    need.prefix.every((p) =>
      head.some(
        (f) =>
          f.fieldPath === p.fieldPath &&
          ('arrayConfig' in p ? directionOf(f) === 'contains' : directionOf(f) !== 'contains'),
      ),
    );
  const tailOk =
    tail.length === need.order.length &&
    need.order.every((o, i) => tail[i]!.fieldPath === o.fieldPath && directionOf(tail[i]!) === o.direction);
  return headOk && tailOk;
}

/** A Store on the docstore backend whose SDK records each query instead of sending it. */
function recordingStore(sent: QueryShape[], namespace: string): Store {
  const documentId = Symbol('documentId');
  const query = (collection: string, filters: QueryShape['filters'], orderBy: QueryShape['orderBy']) => {
    const self: Record<string, unknown> = {
      where: (field: string, op: string) => query(collection, [...filters, [field, op]], orderBy),
      orderBy: (field: unknown, direction: Direction = 'asc') =>
        query(collection, filters, [...orderBy, [field === documentId ? NAME : String(field), direction]]),
      startAfter: () => self,
      offset: () => self,
      limit: () => self,
      async get() {
        sent.push({ collection, filters, orderBy });
        return { docs: [] };
      },
      count: () => ({
        async get() {
          sent.push({ collection, filters, orderBy });
          return { data: () => ({ count: 0 }) };
        },
      }),
    };
    return self;
  };
  const db = {
    collection: (id: string) => ({
      ...query(id, [], []),
      doc: (docId: string) => ({ id: docId, get: async () => ({ exists: false }) }),
    }),
    runTransaction: (run: (tx: unknown) => Promise<unknown>) =>
      run({ get: async () => ({ exists: false }), set() {}, delete() {} }),
  };
  const context = { sdk: { FieldPath: { documentId: () => documentId } }, db } as unknown as FirestoreContext;
  return {
    backend: 'docstore',
    collection: <T extends Doc>(name: string, _options?: CollectionOptions): Collection<T> =>
      firestoreCollection<T>(async () => context, name, `${namespace}${name}`),
    ping: async () => true,
    close: async () => {},
  };
}

/** The outbox's own queries (due items, pending count) for each outbox collection of a service. */
async function outboxQueries(store: Store, service: string): Promise<void> {
  for (const collection of Object.keys(serviceCollections(service))) {
    if (!collection.startsWith('outbox_')) continue;
    const outbox = createOutbox({ store, name: collection.slice('outbox_'.length), deliver: async () => {} });
    await outbox.drain();
    await outbox.pending();
  }
}

const H = 'hh_1';
const LATER = '2030-01-01T00:00:00.000Z';

/** Representative calls of every query-running repository method, per service. */
const SCENARIOS: Record<string, (store: Store, sent: readonly QueryShape[]) => Promise<void>> = {
  async 'artifacts-audit'(store) {
    const artifacts = createArtifactRepository(store, {} as Parameters<typeof createArtifactRepository>[1]);
    await artifacts.get(H, 'art_1');
    await artifacts.listForMission(H, 'm_1');
    await artifacts.listForMission(H, 'm_1', 'Transcript');
    const ledger = createAuditLedger(store);
    const filters = { action: 'a', targetType: 't', category: 'c' } as const;
    for (let mask = 0; mask < 8; mask++) {
      const query = { limit: 10, offset: 0 } as Record<string, unknown>;
      Object.keys(filters).forEach((key, i) => {
        if (mask & (1 << i)) query[key] = filters[key as keyof typeof filters];
      });
      await ledger.householdPage(H, query as { limit: number; offset: number });
    }
    await ledger.householdPage(H, { limit: 10, offset: 0, beforeSeq: 40 });
    await ledger.householdPage(H, { limit: 10, offset: 0, action: 'a', beforeSeq: 40 });
    await ledger.missionTrail(H, 'm_1', { limit: 10, offset: 5 });
    await ledger.missionTrail(H, 'm_1', { limit: 10, offset: 0, afterSeq: 7 });
    await ledger.missionWhereabouts(H, 'm_1');
    await ledger.missionOpening(H, 'm_1');
    await ledger.missionEntriesWithin(H, 'm_1', { maxEntries: 10, maxChars: 10_000 });
    await ledger.missionChangedAfter(H, 'm_1', 3);
    await artifacts.latest(H, 'm_1', 'AuditLog');
    await ledger.verify(H);
  },
  async 'browser-bridge'(store, sent) {
    await createSeenWebhookIds(store, () => 1_000_000_000).remember('wh_1');
    // The sweep runs after `remember` returns; wait until its query is recorded.
    await expect.poll(() => sent.some((s) => s.collection.endsWith('browser_webhook_ids'))).toBe(true);
  },
  async cartprep(store) {
    const jobs = createCartprepJobs(store);
    await jobs.queued(10);
    await jobs.leaseExpired(Date.now());
    await jobs.callbackPending();
    // The bounds' first count of a household and of a user: their active jobs, by status.
    const job = { jobId: 'cpj_1', householdId: H, actorId: 'usr_1', status: 'QUEUED' };
    await jobs.create(job as never, { household: 5, user: 5 }).catch(() => undefined);
  },
  async commerce(store) {
    const offers = createOfferRepository(store);
    const shapes: Omit<OfferSearchConstraints, 'limit' | 'cursor'>[] = [
      {},
      { category: 'TOP', minPrice: 10, maxPrice: 90 },
      { query: 'linen shirt', currency: 'EUR' },
      { season: 'SUMMER', category: 'DRESS' },
      { size: 'm' },
      { colors: ['blue', 'navy'], maxPrice: 50 },
    ];
    for (const status of ['ACTIVE', 'ARCHIVED'] as const)
      for (const c of shapes) await offers.search(planOfferSearch(H, status, c), 20, null);
  },
  async gateway(store) {
    await createHouseholdRepository(store).listFor('usr_1');
    await createUserDirectory(store).byEmail('a@b.test');
    const requests = createPurchaseRequestRepository(store);
    await requests.list(H);
    await requests.list(H, 'APPROVED');
    await requests.pendingDispatch(LATER);
    await createIdempotencyStore(store).purgeExpired();
  },
  async orchestrator(store) {
    await createMissionRepository(store).listForOwner(H, 'usr_1');
    await createMissionRepository(store).listOpenPolls(H);
    await createMissionRepository(store).withExpiredLease(Date.now(), 50);
    await createEventLog(store).after('m_1', 3);
  },
  async vto(store) {
    const jobs = createVtoJobs(store);
    await jobs.list(H, { limit: 20 });
    await jobs.list(H, { status: 'SUCCEEDED', limit: 20 });
    await jobs.queued(5);
    await jobs.abandoned(Date.now());
    const job = { jobId: 'vto_1', householdId: H, requesterId: 'usr_1', status: 'QUEUED' };
    await jobs.create(job as never, { household: 5, user: 5 }).catch(() => undefined);
  },
  async wardrobe(store) {
    const items = createItemRepository(store);
    const values = { category: 'TOP', ownerMemberId: 'usr_1', season: 'WINTER', updatedSince: LATER };
    const keys = Object.keys(values) as (keyof typeof values)[];
    for (let mask = 0; mask < 1 << keys.length; mask++) {
      const filter = Object.fromEntries(keys.filter((_, i) => mask & (1 << i)).map((k) => [k, values[k]]));
      await items.list(H, filter, 20, null);
    }
    await items.newest(H, 5);
    await items.deletedSince(H, LATER);
    await createOutfitRepository(store).newest(H, 5);
    await createOutfitRepository(store).idsWithItem(H, 'item_1');
    await createCollectionRepository(store).newest(H, 5);
    await createCollectionRepository(store).idsHolding(H, { type: 'ITEM', id: 'item_1' });
  },
};

describe('requiredIndex / indexServes (the model of Firestore used below)', () => {
  const asc = (fieldPath: string): FirestoreIndexField => ({ fieldPath, order: 'ASCENDING' });
  const desc = (fieldPath: string): FirestoreIndexField => ({ fieldPath, order: 'DESCENDING' });

  it('needs no composite index for equality filters alone or one field ordered with its tie-break', () => {
    const shape = (filters: QueryShape['filters'], orderBy: QueryShape['orderBy']): QueryShape => ({
      collection: 'c',
      filters,
      orderBy: [...orderBy, [NAME, 'asc']],
    });
    expect(
      requiredIndex(
        shape(
          [
            ['a', '=='],
            ['b', '=='],
          ],
          [],
        ),
      ),
    ).toBeNull();
    expect(requiredIndex(shape([['a', '<']], [['a', 'asc']]))).toBeNull();
    expect(requiredIndex(shape([['a', '<']], []))).toBeNull();
    expect(requiredIndex(shape([['a', '==']], [['t', 'asc']]))).not.toBeNull();
  });

  it('needs equality fields then the order, with __name__ when it runs against the last direction', () => {
    const need = requiredIndex({
      collection: 'c',
      filters: [['a', '==']],
      orderBy: [
        ['t', 'desc'],
        [NAME, 'asc'],
      ],
    })!;
    expect(indexServes([asc('a'), desc('t'), asc(NAME)], need)).toBe(true);
    expect(indexServes([asc('a'), desc('t')], need)).toBe(false); // implies __name__ desc
    expect(indexServes([asc('a'), asc('t')], need)).toBe(false);
    expect(indexServes([asc('b'), desc('t'), asc(NAME)], need)).toBe(false);
    const single = requiredIndex({
      collection: 'c',
      filters: [],
      orderBy: [
        ['t', 'desc'],
        [NAME, 'asc'],
      ],
    })!;
    expect(indexServes([desc('t'), asc(NAME)], single)).toBe(true);
  });

  it('orders inequality filters implicitly and matches array-contains only to CONTAINS', () => {
    const need = requiredIndex({
      collection: 'c',
      filters: [
        ['tags', 'array-contains'],
        ['a', '=='],
        ['p', '>='],
      ],
      orderBy: [[NAME, 'asc']],
    })!;
    const contains: FirestoreIndexField = { fieldPath: 'tags', arrayConfig: 'CONTAINS' };
    expect(indexServes([asc('a'), contains, asc('p')], need)).toBe(true);
    expect(indexServes([asc('a'), asc('tags'), asc('p')], need)).toBe(false);
    expect(indexServes([asc('a'), contains, asc('p'), asc('q')], need)).toBe(false);
  });
});

describe('shipped composite indexes serve every recorded query', () => {
  it('has a scenario for every service', () => {
    expect(Object.keys(SCENARIOS).sort()).toEqual(Object.keys(SERVICE_COLLECTIONS).sort());
  });

  it.each(Object.keys(SCENARIOS))('%s', async (service) => {
    const sent: QueryShape[] = [];
    const store = recordingStore(sent, firestoreNamespaceOf(service));
    await SCENARIOS[service]!(store, sent);
    await outboxQueries(store, service);
    expect(sent.length).toBeGreaterThan(0);
    const indexes = expectedIndexFile(service)?.indexes ?? [];
    const missing = sent.flatMap((shape) => {
      const need = requiredIndex(shape);
      if (!need) return [];
      const served = indexes.some(
        (index) => index.collectionGroup === shape.collection && indexServes(index.fields, need),
      );
      return served ? [] : [{ shape, need }];
    });
    expect(missing).toEqual([]);
  });
});
