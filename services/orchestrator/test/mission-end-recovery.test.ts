// A mission's end is stored first (DONE/FAILED) and its follow-up queued after: the browsers
// closed, the MISSION_COMPLETED/MISSION_CANCELLED entry, the Transcript and the OutcomeSummary. The
// end's write marks the follow-up as owed (`end_pending`), so a process that dies between the two
// leaves the mark behind, and the recovery sweep queues what the dead process did not, once,
// and writes the end's `state.changed` on the mission's stream when that is missing too.
// Real sqlite store; the peers are fakes that count what they receive.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppendAuditEventRequest } from '@hs/contracts';
import { createStore, type Store } from '@hs/store';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MissionDoc } from '../src/domain/mission.ts';
import { END_FOLLOW_UP_GRACE_MS, missionEndEventId, recoverMissionEnds } from '../src/flows/mission-end.ts';
import { as, buildTestApp, createMission, H, OWNER } from './fixtures/build.ts';
import { type FakePeers, startFakePeers } from './fixtures/fake-peers.ts';

const M = `/api/v1/households/${H}/orchestrator/missions`;
const INTERNAL = ['end_pending', 'ended_by'];

let peers: FakePeers;
let dir: string;
let store: Store;
let app: Awaited<ReturnType<typeof buildTestApp>>;

beforeAll(async () => {
  peers = await startFakePeers();
  dir = mkdtempSync(join(tmpdir(), 'mission-end-recovery-'));
});
afterAll(async () => {
  await peers.close();
  rmSync(dir, { recursive: true, force: true });
});
let files = 0;
beforeEach(() => {
  peers.calls.length = 0;
  peers.audit.length = 0;
  peers.artifacts.length = 0;
  peers.behaviour.clear();
  store = createStore({ backend: 'sqlite', file: join(dir, `store-${++files}.db`) });
});
afterEach(async () => {
  await app.close();
  await store.close();
});

const build = async (background = false) => {
  app = await buildTestApp(peers.url, { store, background });
  return app;
};

/** Past the grace period, as the sweep's clock sees it. */
const later = () => Date.now() + END_FOLLOW_UP_GRACE_MS + 1000;

/** What the peers received for the mission's end. */
function delivered(missionId: string) {
  return {
    ends: peers.audit.filter(
      (e) =>
        e.missionId === missionId && (e.action === 'MISSION_COMPLETED' || e.action === 'MISSION_CANCELLED'),
    ),
    artifacts: peers.artifacts
      .filter((a) => a.body.missionId === missionId && a.kind !== 'mission-plan')
      .map((a) => a.kind)
      .sort(),
    browserCloses: peers.calls.filter((c) => c.url === `/api/v1/missions/${missionId}/sessions/terminate`)
      .length,
  };
}

/** Exactly one of each: the end entry (under its mission's fixed id), both artifacts, one close. */
function expectFollowedUpOnce(missionId: string, action: string, actorId: string, requestId: string) {
  const got = delivered(missionId);
  expect(got.ends).toHaveLength(1);
  expect(got.ends[0]).toMatchObject({
    action,
    actorId,
    eventId: missionEndEventId(missionId),
    detail: { finalState: action === 'MISSION_COMPLETED' ? 'DONE' : 'FAILED' },
  });
  expect(got.artifacts).toEqual(['outcome-summary', 'transcript']);
  expect(got.browserCloses).toBe(1);
  // Each delivery carried the request that ended the mission.
  const closeCall = peers.calls.find((c) => c.url === `/api/v1/missions/${missionId}/sessions/terminate`)!;
  expect(closeCall.headers['x-request-id']).toBe(requestId);
}

const stored = async (missionId: string) => (await app.ctx.missions.getById(missionId)) as MissionDoc;

/** The `to` of every state.changed on the mission's stream, in order. */
const stateChanges = async (missionId: string) =>
  (await app.ctx.events.after(missionId, 0, 1000))
    .filter((e) => e.type === 'state.changed')
    .map((e) => e.data.to);

/**
 * What a process killed right after storing the end leaves: the mission DONE (or FAILED) with the
 * mark, and nothing of the follow-up queued.
 */
async function endedThenCrashed(state: 'DONE' | 'FAILED', updatedAt = new Date().toISOString()) {
  const m = await createMission(app, 'INTERACTIVE', 'find me a linen shirt');
  const { changed } = await app.ctx.missions.update(m.mission_id, (doc) => ({
    ...doc,
    state,
    end_pending: true,
    ended_by: { by: 'owner', actor_id: OWNER, request_id: 'req-crashed' },
    updated_at: updatedAt,
  }));
  expect(changed).toBe(true);
  peers.calls.length = 0;
  return m.mission_id as string;
}

describe('an end whose process died before its follow-up', () => {
  it('is followed up by the sweep past the grace period, once, and its mark removed', async () => {
    await build();
    const missionId = await endedThenCrashed('FAILED');
    expect(delivered(missionId)).toEqual({ ends: [], artifacts: [], browserCloses: 0 });

    expect(await stateChanges(missionId)).toEqual(['RUNNING']);

    expect(await recoverMissionEnds(app.ctx, { now: later() })).toBe(1);
    expectFollowedUpOnce(missionId, 'MISSION_CANCELLED', OWNER, 'req-crashed');
    // An open stream sees the end the dead process never wrote.
    expect(await stateChanges(missionId)).toEqual(['RUNNING', 'FAILED']);
    const doc = await stored(missionId);
    expect(doc.state).toBe('FAILED');
    for (const field of INTERNAL) expect(doc).not.toHaveProperty(field);
    // The artifacts' refs landed on the mission.
    expect(doc.artifacts.map((a) => a.type).sort()).toEqual(['MissionPlan', 'OutcomeSummary', 'Transcript']);

    // Nothing is left for a later sweep, nor for another replica's.
    expect(await recoverMissionEnds(app.ctx, { now: later() + 3_600_000 })).toBe(0);
    expectFollowedUpOnce(missionId, 'MISSION_CANCELLED', OWNER, 'req-crashed');
    expect(await stateChanges(missionId)).toEqual(['RUNNING', 'FAILED']);
  });

  it('is followed up once, with one state.changed, when two replicas sweep at the same moment', async () => {
    await build();
    const missionId = await endedThenCrashed('DONE');
    const results = await Promise.all([
      recoverMissionEnds(app.ctx, { now: later() }),
      recoverMissionEnds(app.ctx, { now: later() }),
    ]);
    expect(results.sort()).toEqual([0, 1]);
    expectFollowedUpOnce(missionId, 'MISSION_COMPLETED', OWNER, 'req-crashed');
    expect(await stateChanges(missionId)).toEqual(['RUNNING', 'DONE']);
    expect(await stored(missionId)).not.toHaveProperty('end_pending');
  });

  it('is followed up once when the ending request failed halfway (the audit store failing once)', async () => {
    await build();
    const m = await createMission(app, 'INTERACTIVE', 'find me a linen shirt');
    peers.calls.length = 0;
    const record = vi.spyOn(app.ctx.audit, 'record').mockRejectedValueOnce(new Error('store away'));
    const res = await app.inject({
      method: 'POST',
      url: `${M}/${m.mission_id}/complete`,
      headers: as(OWNER),
    });
    expect(res.statusCode).toBe(500);
    record.mockRestore();
    // The end is stored, with its mark; the browsers were closed before the failure.
    expect(await stored(m.mission_id)).toMatchObject({
      state: 'DONE',
      end_pending: true,
      ended_by: { by: 'owner', actor_id: OWNER, request_id: res.headers['x-request-id'] },
    });
    expect(delivered(m.mission_id)).toEqual({ ends: [], artifacts: [], browserCloses: 1 });

    expect(await recoverMissionEnds(app.ctx, { now: later() })).toBe(1);
    expectFollowedUpOnce(m.mission_id, 'MISSION_COMPLETED', OWNER, String(res.headers['x-request-id']));
    expect(await stored(m.mission_id)).not.toHaveProperty('end_pending');
    // The request wrote the end's event before it failed: not written twice.
    expect(await stateChanges(m.mission_id)).toEqual(['RUNNING', 'DONE']);
  });

  it("is followed up once when the agent's ending turn failed halfway (the audit store failing once)", async () => {
    await build();
    const m = await createMission(app, 'INTERACTIVE', 'find me a linen shirt');
    peers.calls.length = 0;
    // The turn's other entries go through; the end's entry finds the store away.
    const real = app.ctx.audit.record.bind(app.ctx.audit);
    const record = vi.spyOn(app.ctx.audit, 'record').mockImplementation(async (...args) => {
      if (args[1].action === 'MISSION_COMPLETED') throw new Error('store away');
      return real(...args);
    });
    const res = await app.inject({
      method: 'POST',
      url: `${M}/${m.mission_id}/chat`,
      headers: as(OWNER),
      payload: { message: 'done' },
    });
    record.mockRestore();
    const requestId = String(res.headers['x-request-id']);
    // Whatever the turn answered, the end is stored with the agent's mark.
    expect(await stored(m.mission_id)).toMatchObject({
      state: 'DONE',
      end_pending: true,
      ended_by: { by: 'agent', actor_id: OWNER, request_id: requestId },
    });
    expect(delivered(m.mission_id).ends).toEqual([]);

    expect(await recoverMissionEnds(app.ctx, { now: later() })).toBe(1);
    expectFollowedUpOnce(m.mission_id, 'MISSION_COMPLETED', OWNER, requestId);
    expect(delivered(m.mission_id).ends[0]).toMatchObject({ detail: { endedBy: 'agent' } });
    expect(await stateChanges(m.mission_id)).toEqual(['RUNNING', 'DONE']);
    expect(await stored(m.mission_id)).not.toHaveProperty('end_pending');
  });

  it('queues nothing twice when the process died after the follow-up but before removing the mark', async () => {
    await build();
    const m = await createMission(app, 'INTERACTIVE', 'find me a linen shirt');
    const res = await app.inject({
      method: 'POST',
      url: `${M}/${m.mission_id}/complete`,
      headers: as(OWNER),
    });
    expect(res.statusCode).toBe(200);
    const requestId = String(res.headers['x-request-id']);
    expectFollowedUpOnce(m.mission_id, 'MISSION_COMPLETED', OWNER, requestId);
    // Put the mark back, as the dead process would have left it.
    await app.ctx.missions.update(m.mission_id, (doc) => ({
      ...doc,
      end_pending: true,
      ended_by: { by: 'owner', actor_id: OWNER, request_id: requestId },
    }));

    expect(await recoverMissionEnds(app.ctx, { now: later() })).toBe(1);
    expectFollowedUpOnce(m.mission_id, 'MISSION_COMPLETED', OWNER, requestId);
    expect(await stored(m.mission_id)).not.toHaveProperty('end_pending');
  });

  it('is followed up at boot by a process started on the store (onReady)', async () => {
    await build();
    const missionId = await endedThenCrashed(
      'DONE',
      new Date(Date.now() - 2 * END_FOLLOW_UP_GRACE_MS).toISOString(),
    );
    await app.close();
    // The restarted process, with its background jobs.
    await build(true);
    await app.ready();
    await vi.waitFor(() => expect(delivered(missionId).artifacts).toHaveLength(2), { timeout: 5000 });
    await vi.waitFor(async () => expect(await stored(missionId)).not.toHaveProperty('end_pending'), {
      timeout: 5000,
    });
    expectFollowedUpOnce(missionId, 'MISSION_COMPLETED', OWNER, 'req-crashed');
    expect(await stateChanges(missionId)).toEqual(['RUNNING', 'DONE']);
  });
});

describe('the sweep leaves alone', () => {
  it('an end within the grace period (its request may still be queueing the follow-up)', async () => {
    await build();
    const missionId = await endedThenCrashed('DONE');
    expect(await recoverMissionEnds(app.ctx, { now: Date.now() + END_FOLLOW_UP_GRACE_MS - 5000 })).toBe(0);
    expect(await recoverMissionEnds(app.ctx)).toBe(0);
    expect(delivered(missionId)).toEqual({ ends: [], artifacts: [], browserCloses: 0 });
    expect(await stored(missionId)).toMatchObject({ state: 'DONE', end_pending: true });
    // Once it is past, the sweep does it.
    expect(await recoverMissionEnds(app.ctx, { now: later() })).toBe(1);
    expectFollowedUpOnce(missionId, 'MISSION_COMPLETED', OWNER, 'req-crashed');
  });

  for (const [how, end] of [
    ['the owner completes it', 'complete'],
    ['the agent concludes it', 'done'],
  ] as const)
    it(`an end followed up by its own request (${how}): the mark is gone, a later sweep adds nothing`, async () => {
      await build();
      const m = await createMission(app, 'INTERACTIVE', 'find me a linen shirt');
      peers.calls.length = 0;
      const res =
        end === 'complete'
          ? await app.inject({ method: 'POST', url: `${M}/${m.mission_id}/complete`, headers: as(OWNER) })
          : await app.inject({
              method: 'POST',
              url: `${M}/${m.mission_id}/chat`,
              headers: as(OWNER),
              payload: { message: 'done' },
            });
      expect(res.statusCode).toBe(200);
      expect(res.json().state).toBe('DONE');
      const requestId = String(res.headers['x-request-id']);
      expectFollowedUpOnce(m.mission_id, 'MISSION_COMPLETED', OWNER, requestId);
      const doc = await stored(m.mission_id);
      for (const field of INTERNAL) expect(doc).not.toHaveProperty(field);

      expect(await recoverMissionEnds(app.ctx, { now: Date.now() + 3_600_000 })).toBe(0);
      expectFollowedUpOnce(m.mission_id, 'MISSION_COMPLETED', OWNER, requestId);
    });
});

describe('the MissionView', () => {
  it('never shows the internal end fields, while the mark is set or after', async () => {
    await build();
    const m = await createMission(app, 'INTERACTIVE', 'find me a linen shirt');
    const record = vi.spyOn(app.ctx.audit, 'record').mockRejectedValueOnce(new Error('store away'));
    const ended = await app.inject({
      method: 'POST',
      url: `${M}/${m.mission_id}/cancel`,
      headers: as(OWNER),
    });
    expect(ended.statusCode).toBe(500);
    record.mockRestore();
    // The store holds the mark: the reads below must not pass it on.
    expect(await stored(m.mission_id)).toMatchObject({ state: 'FAILED', end_pending: true });

    const reads = async () => {
      const one = await app.inject({ method: 'GET', url: `${M}/${m.mission_id}`, headers: as(OWNER) });
      const access = await app.inject({
        method: 'GET',
        url: `${M}/${m.mission_id}/access`,
        headers: as(OWNER),
      });
      const list = await app.inject({ method: 'GET', url: M, headers: as(OWNER) });
      for (const res of [one, access, list]) expect(res.statusCode).toBe(200);
      const listed = list.json().find((v: { mission_id: string }) => v.mission_id === m.mission_id);
      return [one.json(), access.json(), listed];
    };
    for (const view of await reads()) {
      expect(view.state).toBe('FAILED');
      for (const field of INTERNAL) expect(view).not.toHaveProperty(field);
    }

    expect(await recoverMissionEnds(app.ctx, { now: later() })).toBe(1);
    for (const view of await reads()) for (const field of INTERNAL) expect(view).not.toHaveProperty(field);
  });

  it('of an end answered in full has no internal end fields either', async () => {
    await build();
    const m = await createMission(app, 'STYLE', 'summer tops please');
    const res = await app.inject({
      method: 'POST',
      url: `${M}/${m.mission_id}/complete`,
      headers: as(OWNER),
    });
    expect(res.statusCode).toBe(200);
    for (const field of INTERNAL) expect(res.json()).not.toHaveProperty(field);
    // The end entry is keyed by the mission: a crash-time repeat is one ledger entry.
    const { ends } = delivered(m.mission_id);
    expect(ends.map((e) => e.eventId)).toEqual([missionEndEventId(m.mission_id)]);
    // An eventId the ledger's contract accepts.
    expect(AppendAuditEventRequest.safeParse(ends[0]).success).toBe(true);
  });
});
