// A session's recording: one screenshot per agent step, kept in memory while the session runs
// (nothing is captured while the user holds control: their input never produces a frame). On
// terminate the frames and the action log are written as one JSON blob to the artifact storage
// artifacts-audit serves, and the BrowserRecording artifact is registered there
// (POST /api/v1/households/{id}/artifacts/recording, ARTIFACTS_AUDIT_INTERNAL_TOKEN) through a
// durable outbox. A 409 means an earlier attempt already registered it; any other refusal gives
// the registration up and is reported in the household's audit log (SYSTEM).
import { type AuditWriter, recordAbandonedDelivery } from '@hs/audit-client';
import { ArtifactReceipt, type BrowserActionLogEntry } from '@hs/contracts';
import { createOutbox, outboxCollections, refusedForGood } from '@hs/outbox';
import { isAppError, type PeerClient } from '@hs/service-kit';
import type { BlobStorage } from '@hs/storage';
import type { Store } from '@hs/store';
import type { Logger } from 'pino';
import type { StoredBrowserSession } from '../domain/session-machine.ts';

/** Bounded: a long session keeps its latest frames. */
export const MAX_FRAMES = 200;

type Frame = { seq: number; at: string; type: string; url: string; jpegBase64: string };
type Registration = { householdId: string; body: Record<string, unknown> };

const OUTBOX_NAME = 'recordings';
export const RECORDING_OUTBOX_COLLECTIONS = outboxCollections(OUTBOX_NAME);

export const recordingPath = (s: { householdId: string; missionId: string; sessionId: string }) =>
  `households/${s.householdId}/missions/${s.missionId}/recordings/${s.sessionId}.json`;

export function createRecordings(deps: {
  store: Store;
  storage: BlobStorage;
  artifacts: PeerClient;
  maxBackoffMs?: number;
  audit: AuditWriter;
  logger?: Logger | undefined;
}) {
  const frames = new Map<string, Frame[]>();
  const outbox = createOutbox<Registration>({
    store: deps.store,
    name: OUTBOX_NAME,
    logger: deps.logger,
    maxBackoffMs: deps.maxBackoffMs ?? 60_000,
    isPermanent: refusedForGood,
    onDropped: ({ householdId, body }, _id, err) =>
      recordAbandonedDelivery(deps.audit, householdId, {
        outbox: OUTBOX_NAME,
        err,
        detail: { type: 'BrowserRecording', sessionId: body.sessionId },
        missionId: typeof body.missionId === 'string' ? body.missionId : null,
        targetType: 'browser_session',
        targetId: String(body.sessionId),
      }),
    deliver: async ({ householdId, body }) => {
      try {
        await deps.artifacts.call({
          method: 'POST',
          path: `/api/v1/households/${encodeURIComponent(householdId)}/artifacts/recording`,
          body,
          schema: ArtifactReceipt,
        });
      } catch (err) {
        if (!(isAppError(err) && err.status === 409)) throw err;
      }
    },
  });

  return {
    outbox,
    /** One agent step's screenshot. */
    add(sessionId: string, line: BrowserActionLogEntry, url: string, jpeg: Uint8Array): void {
      const list = frames.get(sessionId) ?? [];
      list.push({
        seq: line.seq,
        at: line.at,
        type: line.type,
        url,
        jpegBase64: Buffer.from(jpeg).toString('base64'),
      });
      frames.set(sessionId, list.slice(-MAX_FRAMES));
    },
    /** Drops a session's frames without writing them (its recording was written elsewhere). */
    discard(sessionId: string): void {
      frames.delete(sessionId);
    },
    /** Writes the recording of an ended session and queues its artifact. */
    async finish(session: StoredBrowserSession, endedAt: string): Promise<void> {
      const list = frames.get(session.sessionId) ?? [];
      frames.delete(session.sessionId);
      const storagePath = recordingPath(session);
      const durationSeconds = Math.max(0, (Date.parse(endedAt) - Date.parse(session.createdAt)) / 1000);
      const content = {
        sessionId: session.sessionId,
        missionId: session.missionId,
        startedAt: session.createdAt,
        endedAt,
        actionLog: session.actionLog,
        screenshots: list.map((f) => ({ ...f, contentType: 'image/jpeg' })),
      };
      await deps.storage.put(storagePath, Buffer.from(JSON.stringify(content)), 'application/json');
      await outbox.send(`recording-${session.sessionId}`, {
        householdId: session.householdId,
        body: {
          missionId: session.missionId,
          sessionId: session.sessionId,
          storagePath,
          durationSeconds: Math.round(durationSeconds * 10) / 10,
          actionLog: session.actionLog.map((l) => ({ ...l, type: l.type.slice(0, 64) })),
        },
      });
    },
  };
}

export type Recordings = ReturnType<typeof createRecordings>;
