// Orchestrator entries in the artifacts-audit ledger (POST /api/v1/households/{id}/audit/events),
// through a durable outbox: stored first, retried until the ledger accepts them. The ledger
// dedupes on eventId, so a retried delivery is recorded once.
import type { AppendAuditEventRequest } from '@hs/contracts';
import { createOutbox, type Outbox } from '@hs/outbox';
import { isAppError, newId, type PeerClient } from '@hs/service-kit';
import type { Store } from '@hs/store';
import type { Logger } from 'pino';

export type AuditInput = Omit<AppendAuditEventRequest, 'eventId' | 'sourceService'>;
type Item = { householdId: string; event: AppendAuditEventRequest; requestId?: string };

export interface AuditWriter {
  readonly outbox: Outbox<Item> | null;
  record(householdId: string, input: AuditInput, requestId?: string): Promise<void>;
}

export function createAuditWriter(deps: {
  store: Store;
  ledger: PeerClient;
  enabled: boolean;
  maxBackoffMs: number;
  logger?: Logger | undefined;
}): AuditWriter {
  if (!deps.enabled) return { outbox: null, record: async () => {} };
  const outbox = createOutbox<Item>({
    store: deps.store,
    name: 'audit',
    logger: deps.logger,
    maxBackoffMs: deps.maxBackoffMs,
    // A 4xx means the entry itself is wrong; retrying cannot fix it.
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
    async record(householdId, input, requestId) {
      const eventId = newId('aud', 16);
      try {
        await outbox.send(eventId, {
          householdId,
          event: { ...input, eventId, sourceService: 'orchestrator' },
          ...(requestId ? { requestId } : {}),
        });
      } catch (err) {
        // The audit trail must never fail the user's action; the outbox logs what it could not store.
        deps.logger?.error({ err, householdId }, 'audit entry could not be stored');
      }
    },
  };
}
