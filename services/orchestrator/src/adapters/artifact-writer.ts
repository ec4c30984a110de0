// Mission artifacts in artifacts-audit (POST /api/v1/households/{id}/artifacts/{mission-plan|
// transcript|outcome-summary}) through a durable outbox, so an artifacts outage delays them
// instead of losing them. Each write carries the orchestrator's own key (Idempotency-Key), so a
// retry of an attempt that did land answers 200 with that artifact. A 409 therefore means the
// slot holds an artifact someone else wrote: it is reported (log and SYSTEM audit entry) and
// not recorded on the mission as if it were the real one.
import { type AuditWriter, recordAbandonedMissionDelivery } from '@hs/audit-client';
import { ArtifactReceipt, type MissionArtifactRef } from '@hs/contracts';
import { createOutbox, type Outbox, outboxCollections, type ReceiverState, refusedForGood } from '@hs/outbox';
import { isAppError, nowIso, type PeerClient } from '@hs/service-kit';
import type { Store } from '@hs/store';
import type { Logger } from 'pino';

export type ArtifactKind = 'mission-plan' | 'transcript' | 'outcome-summary';
const TYPES: Record<ArtifactKind, string> = {
  'mission-plan': 'MissionPlan',
  transcript: 'Transcript',
  'outcome-summary': 'OutcomeSummary',
};

type Item = {
  householdId: string;
  missionId: string;
  kind: ArtifactKind;
  body: Record<string, unknown>;
  requestId?: string;
};
type Written = { artifactId?: string; createdAt?: string };

export interface ArtifactWriter {
  readonly outbox: Outbox<Item> | null;
  write(item: Item): Promise<void>;
}

const OUTBOX_NAME = 'artifacts';
export const ARTIFACT_OUTBOX_COLLECTIONS = outboxCollections(OUTBOX_NAME);

export function createArtifactWriter(deps: {
  store: Store;
  artifacts: PeerClient;
  enabled: boolean;
  maxBackoffMs: number;
  /** Records the written artifact on the mission (idempotent per type). */
  onWritten: (householdId: string, missionId: string, ref: MissionArtifactRef) => Promise<void>;
  /** Where a conflicting artifact is reported. */
  audit?: AuditWriter;
  logger?: Logger | undefined;
  /** Shared with the audit writer's outbox: both deliver to artifacts-audit (see @hs/outbox). */
  receiver?: ReceiverState;
}): ArtifactWriter {
  if (!deps.enabled) return { outbox: null, write: async () => {} };
  const base = (householdId: string) => `/api/v1/households/${encodeURIComponent(householdId)}`;
  const writerKey = (item: Item) => `orchestrator.${item.missionId}.${item.kind}`;

  async function reportConflict(item: Item, message: string): Promise<void> {
    const type = TYPES[item.kind];
    deps.logger?.error(
      { householdId: item.householdId, missionId: item.missionId, type },
      'artifact slot holds an artifact the orchestrator did not write',
    );
    await deps.audit?.record(
      item.householdId,
      {
        missionId: item.missionId,
        category: 'SYSTEM',
        severity: 'CRITICAL',
        action: 'ARTIFACT_CONFLICT',
        detail: { type, reason: message },
        targetType: 'mission',
        targetId: item.missionId,
      },
      item.requestId,
    );
  }

  const outbox = createOutbox<Item>({
    store: deps.store,
    name: OUTBOX_NAME,
    logger: deps.logger,
    maxBackoffMs: deps.maxBackoffMs,
    ...(deps.receiver ? { receiver: deps.receiver } : {}),
    // 409 is handled in deliver (reported, not retried).
    isPermanent: refusedForGood,
    onDropped: async (item, _id, err) => {
      if (deps.audit)
        await recordAbandonedMissionDelivery(deps.audit, item, {
          outbox: OUTBOX_NAME,
          err,
          detail: { type: TYPES[item.kind] },
        });
    },
    deliver: async (item) => {
      let written: Written;
      try {
        const reply = await deps.artifacts.call({
          method: 'POST',
          path: `${base(item.householdId)}/artifacts/${item.kind}`,
          body: item.body,
          headers: { 'idempotency-key': writerKey(item) },
          schema: ArtifactReceipt,
          ...(item.requestId ? { requestId: item.requestId } : {}),
        });
        written = reply.body;
      } catch (err) {
        if (!(isAppError(err) && err.status === 409)) throw err;
        await reportConflict(item, err.message);
        return;
      }
      await deps.onWritten(item.householdId, item.missionId, {
        artifact_id: written.artifactId ?? null,
        type: TYPES[item.kind],
        created_at: written.createdAt ?? nowIso(),
      });
    },
  });
  return {
    outbox,
    async write(item) {
      try {
        await outbox.send(`${item.missionId}.${item.kind}`, item);
      } catch (err) {
        deps.logger?.error(
          { err, missionId: item.missionId, kind: item.kind },
          'artifact could not be queued',
        );
      }
    },
  };
}
