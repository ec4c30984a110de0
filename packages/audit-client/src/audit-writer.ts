// A service's entries in the artifacts-audit ledger (POST /api/v1/households/{id}/audit/events),
// through a durable outbox: each entry is stored locally first and retried until the ledger
// accepts it, so a ledger outage neither drops an entry nor fails the user's action. The ledger
// dedupes on the writer-chosen eventId, so a retried delivery is recorded once. If the entry
// cannot even be stored locally, `record` throws: an action is never left unaudited in silence.
import { type AppendAuditEventRequest, AuditEntryReceipt } from '@hs/contracts';
import { createOutbox, type Outbox, outboxCollections, type ReceiverState, refusedForGood } from '@hs/outbox';
import { newId, type PeerClient } from '@hs/service-kit';
import type { Store } from '@hs/store';
import type { Logger } from 'pino';

export type AuditInput = Omit<AppendAuditEventRequest, 'eventId' | 'sourceService'>;
type Item = { householdId: string; event: AppendAuditEventRequest; requestId?: string };

export interface AuditWriter {
  /** Null when auditing is switched off (ARTIFACTS_AUDIT_ENABLED=false). */
  readonly outbox: Outbox<Item> | null;
  /**
   * `eventId`: the entry's id when the caller chose it beforehand (an entry kept owed beside the
   * change it records, say): recording it again is recorded once.
   */
  record(householdId: string, input: AuditInput, requestId?: string, eventId?: string): Promise<void>;
}

const OUTBOX_NAME = 'audit';

/** A fresh id for an audit entry (the ledger dedupes on it). */
export const newAuditEventId = () => newId('aud', 16);
/** The outbox collection of every service that writes audit entries (Firestore indexes). */
export const AUDIT_OUTBOX_COLLECTIONS = outboxCollections(OUTBOX_NAME);

export function createAuditWriter(deps: {
  store: Store;
  ledger: PeerClient;
  sourceService: string;
  maxBackoffMs: number;
  enabled?: boolean;
  logger?: Logger | undefined;
  /** Shared with the other outboxes delivering to the ledger's service (see @hs/outbox). */
  receiver?: ReceiverState;
}): AuditWriter {
  if (deps.enabled === false) return { outbox: null, record: async () => {} };
  const outbox = createOutbox<Item>({
    store: deps.store,
    name: OUTBOX_NAME,
    logger: deps.logger,
    maxBackoffMs: deps.maxBackoffMs,
    ...(deps.receiver ? { receiver: deps.receiver } : {}),
    // A 4xx from the ledger about the entry itself (not a rotating token or a busy ledger)
    // means retrying cannot fix it. Such an entry is only logged (the outbox's error line): no
    // `onDropped` here, since the SYSTEM entry reporting it would go to the very ledger that
    // refused it.
    isPermanent: refusedForGood,
    deliver: async ({ householdId, event, requestId }, _id, signal) => {
      await deps.ledger.call({
        method: 'POST',
        path: `/api/v1/households/${encodeURIComponent(householdId)}/audit/events`,
        body: event,
        // A 200 that is not the stored entry (a proxy's page, a redirect) is not a delivery.
        schema: AuditEntryReceipt,
        ...(requestId ? { requestId } : {}),
        ...(signal ? { signal } : {}),
      });
    },
  });
  return {
    outbox,
    async record(householdId, input, requestId, eventId = newAuditEventId()) {
      await outbox.send(eventId, {
        householdId,
        event: { ...input, eventId, sourceService: deps.sourceService },
        ...(requestId ? { requestId } : {}),
      });
    },
  };
}
