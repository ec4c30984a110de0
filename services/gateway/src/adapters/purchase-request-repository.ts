import type { PurchaseRequestStatus } from '@hs/contracts';
import type { ABORT, CollectionOptions, Page, Store } from '@hs/store';
import { SPENDING_STATES } from '../domain/purchase-request-machine.ts';
import type { StoredPurchaseRequest } from '../domain/purchase-request-rules.ts';
import { atomicChange } from './atomic-change.ts';

/** `list` (optionally by status, newest first), `pendingDispatch` and `owingAudit` (updatedAt range). */
export const PURCHASE_REQUEST_COLLECTIONS = {
  purchase_requests: {
    indexes: [
      { fields: ['householdId', 'createdAt'] },
      { fields: ['householdId', 'status', 'createdAt'] },
      { fields: ['dispatchPending', 'updatedAt'] },
      { fields: ['auditPending', 'updatedAt'] },
    ],
  },
} satisfies Record<string, CollectionOptions>;

/** Purchase requests in the gateway's store; every state change is one atomic update. */
export function createPurchaseRequestRepository(store: Store) {
  const requests = store.collection<StoredPurchaseRequest>(
    'purchase_requests',
    PURCHASE_REQUEST_COLLECTIONS.purchase_requests,
  );
  return {
    create: (r: StoredPurchaseRequest) => requests.create(r.requestId, r),
    /** Null for a request of another household: callers answer 404 either way. */
    async get(householdId: string, requestId: string): Promise<StoredPurchaseRequest | null> {
      const r = await requests.get(requestId);
      return r && r.householdId === householdId ? r : null;
    },
    /**
     * The household's requests among `ids` whose approval reserved their total in the ledger
     * `budgetKey` and still holds it (a spending state): another ledger's entry for them is one an
     * approval that lost a race left behind (a request approved in December, reserved again
     * in January by a second approval after midnight).
     */
    async spendingFrom(householdId: string, ids: readonly string[], budgetKey: string): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const found = await requests.getMany(ids);
      return new Set(
        [...found.values()]
          .filter(
            (r) =>
              r.householdId === householdId &&
              SPENDING_STATES.includes(r.status) &&
              (!r.budgetKey || r.budgetKey === budgetKey),
          )
          .map((r) => r.requestId),
      );
    },
    /**
     * One page of the household's requests, newest first: a household may hold any number, so
     * nobody reads them all at once. A cursor the store can't use fails with StoreQueryError.
     */
    list: (
      householdId: string,
      status?: PurchaseRequestStatus,
      page: { limit: number; cursor: string | null } = { limit: 50, cursor: null },
    ): Promise<Page<StoredPurchaseRequest>> =>
      requests.query({
        where: [['householdId', '==', householdId], ...(status ? [['status', '==', status] as const] : [])],
        orderBy: [{ field: 'createdAt', direction: 'desc' }],
        limit: page.limit,
        cursor: page.cursor,
      }),
    change: (requestId: string, apply: (r: StoredPurchaseRequest) => StoredPurchaseRequest | typeof ABORT) =>
      atomicChange(requests, requestId, apply),
    /** Requests whose cart-prep job may not have been dispatched, last touched before `before`. */
    async pendingDispatch(before: string): Promise<StoredPurchaseRequest[]> {
      const page = await requests.query({
        where: [
          ['dispatchPending', '==', true],
          ['updatedAt', '<', before],
        ],
        orderBy: [{ field: 'updatedAt' }],
        limit: 50,
      });
      return page.items;
    },
    /** Requests holding gate entries not yet handed to the audit outbox, last touched before `before`. */
    async owingAudit(before: string): Promise<StoredPurchaseRequest[]> {
      const page = await requests.query({
        where: [
          ['auditPending', '==', true],
          ['updatedAt', '<', before],
        ],
        orderBy: [{ field: 'updatedAt' }],
        limit: 50,
      });
      return page.items;
    },
  };
}

export type PurchaseRequestRepository = ReturnType<typeof createPurchaseRequestRepository>;
