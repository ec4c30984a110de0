// An ended mission's browser sessions are ended on the bridge (POST
// /api/v1/missions/{id}/sessions/terminate) through a durable outbox: a bridge that is down or
// slow delays it without failing the request that ended the mission, and across restarts it is
// still done. Before this a finished mission kept its browsers, and the household's places, until
// the bridge's idle timeout.
import { type AuditWriter, recordAbandonedMissionDelivery } from '@hs/audit-client';
import { TerminateMissionSessionsResult } from '@hs/contracts';
import { createOutbox, type Outbox, outboxCollections, refusedForGood } from '@hs/outbox';
import { isAppError, type PeerClient } from '@hs/service-kit';
import type { Store } from '@hs/store';
import type { Logger } from 'pino';

type Item = { householdId: string; missionId: string; requestId?: string };

export interface BrowserCloser {
  readonly outbox: Outbox<Item>;
  /**
   * Ends the mission's open sessions. `occasion` names why, so each occasion is its own item:
   * the end itself, and a turn cut by the end that may have opened a session after it.
   */
  close(item: Item, occasion: string): Promise<void>;
}

const OUTBOX_NAME = 'browser-close';
export const BROWSER_CLOSE_OUTBOX_COLLECTIONS = outboxCollections(OUTBOX_NAME);
/** How long the ending request waits for the bridge (closing a browser takes milliseconds). */
const SEND_WAIT_MS = 2000;

export function createBrowserCloser(deps: {
  store: Store;
  bridge: PeerClient;
  maxBackoffMs: number;
  audit?: AuditWriter;
  logger?: Logger | undefined;
}): BrowserCloser {
  const outbox = createOutbox<Item>({
    store: deps.store,
    name: OUTBOX_NAME,
    logger: deps.logger,
    maxBackoffMs: deps.maxBackoffMs,
    sendWaitMs: SEND_WAIT_MS,
    // A 404 is a bridge without this route yet (a rolling deploy): it will have it.
    isPermanent: (err) => refusedForGood(err) && !(isAppError(err) && err.status === 404),
    onDropped: async (item, _id, err) => {
      if (deps.audit) await recordAbandonedMissionDelivery(deps.audit, item, { outbox: OUTBOX_NAME, err });
    },
    deliver: async (item) => {
      const reply = await deps.bridge.call({
        method: 'POST',
        path: `/api/v1/missions/${encodeURIComponent(item.missionId)}/sessions/terminate`,
        body: { householdId: item.householdId },
        schema: TerminateMissionSessionsResult,
        ...(item.requestId ? { requestId: item.requestId } : {}),
      });
      const ended = reply.body.terminated;
      if (ended.length > 0)
        deps.logger?.info(
          { missionId: item.missionId, sessions: ended },
          'browser sessions of an ended mission closed',
        );
    },
  });
  return {
    outbox,
    async close(item, occasion) {
      try {
        await outbox.send(`${item.missionId}.${occasion}`, item);
      } catch (err) {
        // Not even stored (the store is away): the bridge's idle timeout still ends the sessions.
        deps.logger?.error(
          { err, missionId: item.missionId },
          'browser sessions of an ended mission not queued for closing',
        );
      }
    },
  };
}
