// Mission artifacts in artifacts-audit (POST /api/v1/households/{id}/artifacts/{mission-plan|
// transcript|outcome-summary}) through a durable outbox, so an artifacts outage delays them
// instead of losing them. A 409 means an earlier attempt already wrote it: done.
import type { MissionArtifactRef } from '@hs/contracts';
import { createOutbox, type Outbox, outboxCollections } from '@hs/outbox';
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
  logger?: Logger | undefined;
}): ArtifactWriter {
  if (!deps.enabled) return { outbox: null, write: async () => {} };
  const base = (householdId: string) => `/api/v1/households/${encodeURIComponent(householdId)}`;

  async function existing(item: Item): Promise<Written | null> {
    const reply = await deps.artifacts.call({
      method: 'GET',
      path: `${base(item.householdId)}/missions/${encodeURIComponent(item.missionId)}/artifacts`,
      query: { artifact_type: TYPES[item.kind] },
    });
    const body = reply.body as Written[] | { items?: Written[] };
    return (Array.isArray(body) ? body : (body.items ?? []))[0] ?? null;
  }

  const outbox = createOutbox<Item>({
    store: deps.store,
    name: OUTBOX_NAME,
    logger: deps.logger,
    maxBackoffMs: deps.maxBackoffMs,
    isPermanent: (err) => isAppError(err) && err.status >= 400 && err.status < 500 && err.status !== 409,
    deliver: async (item) => {
      let written: Written | null;
      try {
        const reply = await deps.artifacts.call({
          method: 'POST',
          path: `${base(item.householdId)}/artifacts/${item.kind}`,
          body: item.body,
          ...(item.requestId ? { requestId: item.requestId } : {}),
        });
        written = reply.body as Written;
      } catch (err) {
        if (!(isAppError(err) && err.status === 409)) throw err;
        written = await existing(item).catch(() => null);
      }
      await deps.onWritten(item.householdId, item.missionId, {
        artifact_id: written?.artifactId ?? null,
        type: TYPES[item.kind],
        created_at: written?.createdAt ?? nowIso(),
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
