// A turn whose orchestrator died mid-turn used to stay open on the mission's stream until the
// owner chatted again (a started turn, never a turn.failed): the sweep closes it once its lease
// has run out, on every store, exactly once even when a chat takes the mission at the same time.
import { storeBackends } from '@hs/testing';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createEventLog } from '../src/adapters/event-log.ts';
import { createMissionRepository } from '../src/adapters/mission-repository.ts';
import type { OrchestratorContext } from '../src/context.ts';
import { newMissionDoc, turnBlocker } from '../src/domain/mission.ts';
import { closeExpiredTurns } from '../src/flows/expired-turns.ts';
import { buildTestApp, createMission } from './fixtures/build.ts';
import { startFakePeers } from './fixtures/fake-peers.ts';

const cleanups: Array<() => void> = [];
afterAll(() => {
  for (const cleanup of cleanups) cleanup();
});

describe.each(storeBackends('expired-turns'))('expired turns on %s', (_name, open, skip) => {
  it.skipIf(skip)(
    'are closed once, with turn.failed; live leases and idle missions are left alone',
    async () => {
      const { store, cleanup } = open();
      cleanups.push(cleanup);
      const ctx = { missions: createMissionRepository(store), events: createEventLog(store) };
      const sweep = (now?: number) => closeExpiredTurns(ctx as unknown as OrchestratorContext, now);
      const now = Date.now();
      const mission = async (missionId: string, lease: { turn_id: string; expires_at: number } | null) => {
        const doc = newMissionDoc({
          missionId,
          householdId: 'h_1',
          ownerId: 'usr_1',
          missionType: 'STYLE',
          now: new Date(now).toISOString(),
        });
        await ctx.missions.create({ ...doc, turn_lease: lease });
      };
      await mission('msn_dead', { turn_id: 'turn_dead', expires_at: now - 1000 });
      await mission('msn_live', { turn_id: 'turn_live', expires_at: now + 60_000 });
      await mission('msn_idle', null);

      expect(await sweep()).toBe(1);
      expect((await ctx.missions.getById('msn_dead'))?.turn_lease).toBeNull();
      expect((await ctx.missions.getById('msn_live'))?.turn_lease).toEqual({
        turn_id: 'turn_live',
        expires_at: now + 60_000,
      });
      expect((await ctx.events.after('msn_dead', 0)).map((e) => [e.type, e.data])).toEqual([
        [
          'turn.failed',
          {
            turn_id: 'turn_dead',
            code: 'TURN_INTERRUPTED',
            message: 'The previous turn was interrupted before it finished',
          },
        ],
      ]);
      expect(await ctx.events.after('msn_live', 0)).toEqual([]);
      expect(await ctx.events.after('msn_idle', 0)).toEqual([]);

      // Nothing left to close, and two sweeps at once report a dead turn once.
      expect(await sweep()).toBe(0);
      await mission('msn_dead2', { turn_id: 'turn_dead2', expires_at: now - 10 });
      const both = await Promise.all([sweep(), sweep()]);
      expect(both[0] + both[1]).toBe(1);
      expect(await ctx.events.after('msn_dead2', 0)).toHaveLength(1);

      // While the dead turn's end is being written, the mission takes no new turn (whose events
      // would come first): a chat then finds it busy, and takes it once the sweep is done.
      await mission('msn_dead3', { turn_id: 'turn_dead3', expires_at: now - 10 });
      const seenWhileWriting: Array<string | null> = [];
      const events = ctx.events;
      const slowCtx = {
        ...ctx,
        events: {
          ...events,
          append: async (...args: Parameters<typeof events.append>) => {
            seenWhileWriting.push(turnBlocker((await ctx.missions.getById(args[0]))!, Date.now()));
            return events.append(...args);
          },
        },
      };
      expect(await closeExpiredTurns(slowCtx as unknown as OrchestratorContext)).toBe(1);
      expect(seenWhileWriting).toEqual(['busy']);
      expect(turnBlocker((await ctx.missions.getById('msn_dead3'))!, Date.now())).toBeNull();
    },
  );
});

describe('the orchestrator’s sweep', () => {
  it('closes a dead turn by itself, without a new chat (lease 1 s)', async () => {
    const peers = await startFakePeers();
    const app = await buildTestApp(peers.url, {
      background: true,
      env: { ORCHESTRATOR_TURN_LEASE_SECONDS: '1' },
    });
    await app.ready();
    try {
      const m = await createMission(app, 'STYLE', 'summer tops under 80');
      // As a process killed mid-turn leaves it: a lease nobody renews.
      await app.ctx.missions.update(m.mission_id, (doc) => ({
        ...doc,
        turn_lease: { turn_id: 'turn_killed', expires_at: Date.now() + 500 },
      }));
      await vi.waitFor(
        async () => {
          const events = await app.ctx.events.after(m.mission_id, 0);
          expect(events.at(-1)).toMatchObject({ type: 'turn.failed', data: { turn_id: 'turn_killed' } });
        },
        { timeout: 5000, interval: 100 },
      );
      expect((await app.ctx.missions.getById(m.mission_id))?.turn_lease).toBeNull();
    } finally {
      await app.close();
      await peers.close();
    }
  });
});
