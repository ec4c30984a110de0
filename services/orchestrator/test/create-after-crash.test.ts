// A mission create cut off by a crash of the orchestrator: the mission was stored (under the id
// its Idempotency-Key gives it) but its first turn never answered, with or without the user's
// message in the history. The client's retry with the same key finishes the create: the first
// message is answered once, the mission's opening entry and plan are there, nothing is doubled.
import { keyedId } from '@hs/service-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newMissionDoc, userMessage } from '../src/domain/mission.ts';
import { as, buildTestApp, H, OWNER } from './fixtures/build.ts';
import { type FakePeers, startFakePeers } from './fixtures/fake-peers.ts';

let peers: FakePeers;
let app: Awaited<ReturnType<typeof buildTestApp>> | undefined;
beforeAll(async () => {
  peers = await startFakePeers();
});
afterAll(async () => peers.close());
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const MISSIONS = `/api/v1/households/${H}/orchestrator/missions`;
const body = { mission_type: 'STYLE', initial_message: 'blue tops under 40' };

/** What the crash left: the keyed mission, stored, with `history` and an expired turn lease. */
async function leftByCrash(key: string, withMessage: boolean, leaseLeftMs = -1000) {
  app = await buildTestApp(peers.url);
  const missionId = keyedId('msn', key, [H, OWNER], body);
  const mission = newMissionDoc({
    missionId,
    householdId: H,
    ownerId: OWNER,
    missionType: 'STYLE',
    now: new Date().toISOString(),
  });
  const messageId = keyedId('msg', key, [H, missionId, OWNER], body.initial_message);
  await app.ctx.missions.create({
    ...mission,
    history: withMessage ? [userMessage(messageId, body.initial_message, 'text', mission.created_at)] : [],
    turn_lease: withMessage ? { turn_id: 'turn_dead', expires_at: Date.now() + leaseLeftMs } : null,
  });
  return missionId;
}

const retry = (key: string) =>
  app!.inject({
    method: 'POST',
    url: MISSIONS,
    headers: { ...as(OWNER), 'idempotency-key': key },
    payload: body,
  });

describe('retrying a mission create that a crash cut off', () => {
  for (const [withMessage, leaseLeftMs, left] of [
    [false, 0, 'never stored'],
    [true, -1000, 'stored, unanswered'],
    // The dead process's lease still runs: 409 with Retry-After until it ends, never unanswered.
    [true, 1500, 'stored, its dead turn still under lease'],
  ] as const)
    it(`answers the first message once (${left})`, async () => {
      const key = `create-crash-${left}`;
      const missionId = await leftByCrash(key, withMessage, leaseLeftMs);
      if (leaseLeftMs > 0) {
        const early = await retry(key);
        expect(early.statusCode).toBe(409);
        expect(early.headers['retry-after']).toBe('2');
        await new Promise((done) => setTimeout(done, leaseLeftMs + 100));
      }
      const res = await retry(key);
      expect(res.statusCode).toBe(201);
      const view = res.json();
      expect(view.mission_id).toBe(missionId);
      expect(
        view.history.map((h: { role: string; content: string }) => [
          h.role,
          h.role === 'user' ? h.content : '',
        ]),
      ).toEqual([
        ['user', body.initial_message],
        ['model', ''],
      ]);
      // The opening entry and the plan the crash may have kept from being written: once each.
      await expect
        .poll(
          () => peers.audit.filter((a) => a.action === 'MISSION_CREATED' && a.missionId === missionId).length,
        )
        .toBe(1);
      expect(peers.artifacts.filter((a) => JSON.stringify(a).includes(missionId)).length).toBeGreaterThan(0);
      // Answered now: a second retry replays, running nothing again.
      const calls = peers.calls.length;
      const again = await retry(key);
      expect(again.json().history).toHaveLength(2);
      expect(peers.calls.length).toBe(calls);
    });

  it('two retries racing: one answers the first message, the other is 409, never an unanswered 201', async () => {
    const key = 'create-crash-race';
    await leftByCrash(key, true);
    const answers = await Promise.all([retry(key), retry(key)]);
    for (const res of answers) {
      expect([201, 409]).toContain(res.statusCode);
      if (res.statusCode === 201) expect(res.json().history).toHaveLength(2);
    }
    expect(answers.some((res) => res.statusCode === 201)).toBe(true);
  });
});
