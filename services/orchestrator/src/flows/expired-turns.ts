// A turn whose process died (killed, crashed) leaves its lease behind, and nobody renews it: the
// mission's stream then shows a turn started and never ended, and the app waits on it. Here any
// orchestrator closes such a turn once its lease has run out (decisions: "an expired lease is
// closed (turn.failed) by whichever orchestrator finds it"): the next chat does it as it takes the
// mission (run-turn.ts startTurn), and a sweep does it for missions nobody writes to again.

import { newId, nowIso, startPeriodic } from '@hs/service-kit';
import { ABORT } from '@hs/store';
import type { OrchestratorContext } from '../context.ts';
import type { TurnLease } from '../domain/mission.ts';

/** How many missions one sweep closes at most; the next sweep takes the rest. */
const SWEEP_BATCH = 50;

/** The `turn.failed` that ends a turn whose process died. */
export const interruptedTurn = (lease: TurnLease) => ({
  turn_id: lease.turn_id,
  code: 'TURN_INTERRUPTED',
  message: 'The previous turn was interrupted before it finished',
});

/** How long the sweep holds a mission while it reports a dead turn (a store write or two). */
const CLOSING_MS = 10_000;

/**
 * Closes the turns of missions whose lease ran out by `now`. The dead lease is swapped for one
 * of the sweep's own, atomically (only the one who takes it reports it, so a chat taking the
 * mission at the same moment and this sweep never both do), `turn.failed` goes on the stream,
 * and then the sweep lets the mission go: a chat meanwhile waits (409) rather than run a turn
 * whose events would come before the dead turn's end. Returns how many it closed.
 */
export async function closeExpiredTurns(ctx: OrchestratorContext, now = Date.now()): Promise<number> {
  let closed = 0;
  for (const found of await ctx.missions.withExpiredLease(now, SWEEP_BATCH)) {
    let lease: TurnLease | null = null;
    const closing: TurnLease = { turn_id: newId('turn'), expires_at: Date.now() + CLOSING_MS };
    const { changed } = await ctx.missions.update(found.mission_id, (m) => {
      lease = m.turn_lease;
      if (!m.turn_lease || m.turn_lease.expires_at > now) return ABORT;
      return { ...m, turn_lease: closing, updated_at: nowIso() };
    });
    const lost = lease as TurnLease | null;
    if (!changed || !lost) continue;
    try {
      await ctx.events.append(found.mission_id, 'turn.failed', interruptedTurn(lost));
    } finally {
      await ctx.missions.update(found.mission_id, (m) =>
        m.turn_lease?.turn_id === closing.turn_id ? { ...m, turn_lease: null, updated_at: nowIso() } : ABORT,
      );
    }
    ctx.logger?.warn(
      { missionId: found.mission_id, turnId: lost.turn_id },
      'closed a turn whose process stopped',
    );
    closed++;
  }
  return closed;
}

/** Sweeps every `everyMs` (in the background; a failed sweep is logged and tried again). */
export function startExpiredTurnSweep(ctx: OrchestratorContext, everyMs: number): () => void {
  const sweep = startPeriodic(() => closeExpiredTurns(ctx), {
    everyMs,
    logger: ctx.logger,
    failure: 'could not close expired turns',
  });
  return () => void sweep.stop(0);
}
