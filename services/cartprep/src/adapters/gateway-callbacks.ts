// Reports finished jobs to the gateway's buy-flow callbacks
// (POST {GATEWAY_BASE_URL}/api/v1/households/{id}/requests/{rid}/cart-ready | failed) with
// X-Internal-Token = BUYFLOW_INTERNAL_TOKEN, through a durable outbox: the callback is stored
// first and retried with backoff until the gateway answers, across restarts of either side. A
// callback the gateway refuses for good is reported in the household's audit log (SYSTEM).
import { type AuditWriter, recordAbandonedDelivery } from '@hs/audit-client';
import { type CartFailedCallback, type CartReadyCallback, PurchaseRequestReceipt } from '@hs/contracts';
import { createOutbox, outboxCollections } from '@hs/outbox';
import { createPeerClient, isAppError } from '@hs/service-kit';
import type { Store } from '@hs/store';
import type { Logger } from 'pino';
import type { StoredJob } from '../domain/job-machine.ts';

type Callback = {
  householdId: string;
  requestId: string;
  kind: 'cart-ready' | 'failed';
  body: CartReadyCallback | CartFailedCallback;
};

const OUTBOX_NAME = 'gateway_callbacks';
export const GATEWAY_CALLBACK_OUTBOX_COLLECTIONS = outboxCollections(OUTBOX_NAME);

export function createGatewayCallbacks(deps: {
  store: Store;
  gatewayBaseUrl: string;
  buyflowToken: string;
  timeoutMs: number;
  maxBackoffMs: number;
  audit: AuditWriter;
  logger?: Logger | undefined;
}) {
  const gateway = createPeerClient({
    service: 'gateway',
    baseUrl: deps.gatewayBaseUrl,
    token: deps.buyflowToken,
    timeoutMs: deps.timeoutMs,
  });
  const outbox = createOutbox<Callback>({
    store: deps.store,
    name: OUTBOX_NAME,
    logger: deps.logger,
    maxBackoffMs: deps.maxBackoffMs,
    // 409: the request moved on (cancelled, or already has this result); 404: it is gone;
    // 422: the callback itself is malformed. Retrying changes none of these.
    isPermanent: (err) => isAppError(err) && [404, 409, 422].includes(err.status),
    onDropped: ({ householdId, requestId, kind, body }, _id, err) =>
      recordAbandonedDelivery(deps.audit, householdId, {
        outbox: OUTBOX_NAME,
        err,
        detail: { callback: kind, jobId: body.jobId },
        targetType: 'PURCHASE_REQUEST',
        targetId: requestId,
      }),
    deliver: async ({ householdId, requestId, kind, body }) => {
      await gateway.call({
        method: 'POST',
        path: `/api/v1/households/${encodeURIComponent(householdId)}/requests/${encodeURIComponent(requestId)}/${kind}`,
        body,
        // Only the gateway's answer with the request counts as delivered: a 200 of another shape
        // (a proxy, a redirect) left the request in CART_PREP for good.
        schema: PurchaseRequestReceipt,
      });
    },
  });
  return {
    outbox,
    /** Queues the callback of a finished job (same job, same id: sent once). */
    async report(job: StoredJob): Promise<void> {
      const callback: Callback =
        job.status === 'SUCCEEDED' && job.cart
          ? {
              householdId: job.householdId,
              requestId: job.requestId,
              kind: 'cart-ready',
              body: { jobId: job.jobId, cart: job.cart },
            }
          : {
              householdId: job.householdId,
              requestId: job.requestId,
              kind: 'failed',
              body: {
                jobId: job.jobId,
                errorCode: job.errorCode ?? 'INTERNAL_ERROR',
                message: job.errorMessage,
                evidence: job.evidence ?? null,
              },
            };
      await outbox.send(`${job.jobId}-${job.status}`, callback);
    },
  };
}

export type GatewayCallbacks = ReturnType<typeof createGatewayCallbacks>;
