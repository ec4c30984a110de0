// Writes gateway events to the artifacts-audit ledger through a durable outbox: an entry is
// stored locally first and retried until the ledger accepts it, so a ledger outage never
// drops an entry nor fails the user's action. The ledger dedupes on eventId.
import type { AppendAuditEventRequest } from '@hs/contracts';
import { createOutbox } from '@hs/outbox';
import { isAppError, newId, type PeerClient } from '@hs/service-kit';
import type { Store } from '@hs/store';
import type { Logger } from 'pino';

export type AuditInput = Omit<AppendAuditEventRequest, 'eventId' | 'sourceService'>;

export function createAuditTrail(deps: {
  store: Store;
  ledger: PeerClient;
  logger?: Logger | undefined;
  maxBackoffMs: number;
}) {
  const outbox = createOutbox<{ householdId: string; event: AppendAuditEventRequest; requestId?: string }>({
    store: deps.store,
    name: 'audit',
    logger: deps.logger,
    maxBackoffMs: deps.maxBackoffMs,
    // A 4xx from the ledger means the entry itself is wrong; retrying cannot fix it.
    isPermanent: (err) => isAppError(err) && err.status >= 400 && err.status < 500,
    deliver: async ({ householdId, event, requestId }) => {
      await deps.ledger.call({
        method: 'POST',
        path: `/api/v1/households/${encodeURIComponent(householdId)}/audit/events`,
        body: event,
        ...(requestId ? { requestId } : {}),
      });
    },
  });
  return {
    outbox,
    async record(householdId: string, input: AuditInput, requestId?: string): Promise<void> {
      const eventId = newId('aud', 16);
      await outbox.send(eventId, {
        householdId,
        event: { ...input, eventId, sourceService: 'gateway' },
        ...(requestId ? { requestId } : {}),
      });
    },
  };
}

export type AuditTrail = ReturnType<typeof createAuditTrail>;
