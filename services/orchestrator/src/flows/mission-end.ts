import { type Caller, keyedId, nowIso, startPeriodic } from '@hs/service-kit';
import { ABORT } from '@hs/store';
import type { OrchestratorContext } from '../context.ts';
import type { MissionDoc, MissionEndedBy } from '../domain/mission.ts';
import { outcomeOf } from '../domain/turn-effects.ts';

const MAX_ENTRY_CHARS = 20_000;

/**
 * How long an end's mark must have stood (by the mission's `updated_at`) before the sweep takes
 * its follow-up over: until then the request that ended the mission may still be queueing it
 * (each send waits a few seconds at most).
 */
export const END_FOLLOW_UP_GRACE_MS = 30_000;
/** How often the sweep looks for ends whose follow-up a dead process left owed. */
const END_SWEEP_EVERY_MS = 60_000;
/** How many ended missions one sweep takes at most; the next sweep takes the rest. */
const END_SWEEP_BATCH = 50;

/**
 * What the update that ends a mission sets beside its final state, in the same atomic write: the
 * end's follow-up is owed, and what it needs that the mission does not say (who ended it, the
 * request). `followUpMissionEnd` removes it once the follow-up is queued.
 */
export function endPendingMark(
  by: MissionEndedBy['by'],
  caller: Caller,
  requestId: string,
): { end_pending: true; ended_by: MissionEndedBy } {
  return { end_pending: true, ended_by: { by, actor_id: caller.userId, request_id: requestId } };
}

/** The id of a mission's end entry in the audit ledger: one per mission, however often it is queued. */
export const missionEndEventId = (missionId: string): string =>
  keyedId('aud', missionId, ['MISSION_END'], null);

/**
 * The end's follow-up (`recordMissionEnd`), then the mark removed: what the request that ended
 * the mission does once the end is stored, and what the sweep does for an end whose process died
 * in between. Doing it twice queues nothing twice (every item has a fixed id).
 */
export async function followUpMissionEnd(ctx: OrchestratorContext, mission: MissionDoc): Promise<void> {
  const endedBy = mission.ended_by ?? {
    by: 'owner',
    actor_id: mission.owner_id,
    request_id: `recovered.${mission.mission_id}`,
  };
  await recordMissionEnd(ctx, mission, endedBy);
  // Only the mark goes, from the mission as it now is (an artifact's ref may have landed meanwhile).
  await ctx.missions.update(mission.mission_id, (m) => {
    if (!m.end_pending) return ABORT;
    const { end_pending: _pending, ended_by: _by, ...rest } = m;
    return rest as MissionDoc;
  });
}

/**
 * Runs the follow-up of ended missions whose mark has stood past the grace period (their process
 * died between storing the end and queueing what follows it), at most a batch per call. Two
 * replicas on one store may sweep the same mission at once, or the sweep may overlap an ending
 * request that is merely slow: harmless, since the browser close (`<mission>.end`), the audit
 * entry (`missionEndEventId`, which the ledger records once) and the artifacts
 * (`<mission>.<kind>`) each keep one id however many times they are queued; the stream's
 * `state.changed` is written only by the sweep that claimed the mission, and only when the
 * stream lacks it. Returns how many
 * missions it followed up.
 */
export async function recoverMissionEnds(
  ctx: OrchestratorContext,
  options: { now?: number; graceMs?: number; stopped?: () => boolean } = {},
): Promise<number> {
  const now = options.now ?? Date.now();
  const before = new Date(now - (options.graceMs ?? END_FOLLOW_UP_GRACE_MS)).toISOString();
  let recovered = 0;
  for (const mission of await ctx.missions.withEndPending(before, END_SWEEP_BATCH)) {
    if (options.stopped?.()) break;
    try {
      // Claimed first, by touching the mission as read: of two replicas sweeping at once (or a
      // sweep beside a slow ending request) one goes on. A claimant that dies leaves the mission
      // fresh again, for a sweep past the next grace period.
      const claimed = await ctx.missions.update(mission.mission_id, (m) =>
        m.end_pending && m.updated_at === mission.updated_at ? { ...m, updated_at: nowIso() } : ABORT,
      );
      if (!claimed.changed) continue;
      // The end's stream event is written right after the end itself; a process that died in
      // between left open streams waiting for a mission that is over.
      if (!(await hasEndEvent(ctx, mission)))
        await ctx.events.append(mission.mission_id, 'state.changed', { from: 'RUNNING', to: mission.state });
      await followUpMissionEnd(ctx, claimed.doc!);
      recovered++;
      ctx.logger?.warn(
        { missionId: mission.mission_id, state: mission.state },
        'queued the end of a mission whose process stopped before it did',
      );
    } catch (err) {
      // The mark stays: the next sweep tries again.
      ctx.logger?.warn({ err, missionId: mission.mission_id }, 'could not queue the end of a mission');
    }
  }
  return recovered;
}

/**
 * Whether the mission's stream holds its end (`state.changed` to its final state) among its last
 * END_EVENT_SCAN events: the end's event is written right after the end, and little follows an
 * end, so a long stream is not read whole (50,000 events took 88 ms of blocked loop).
 */
async function hasEndEvent(ctx: OrchestratorContext, mission: MissionDoc): Promise<boolean> {
  const last = await ctx.events.lastSeq(mission.mission_id);
  const recent = await ctx.events.after(
    mission.mission_id,
    Math.max(0, last - END_EVENT_SCAN),
    END_EVENT_SCAN,
  );
  return recent.some((e) => e.type === 'state.changed' && e.data.to === mission.state);
}
const END_EVENT_SCAN = 500;

/**
 * Sweeps at once (boot) and then every `everyMs`, in the background. The returned stop waits for
 * a sweep under way, which ends after the mission it is at, so the outboxes it queues into are
 * still open.
 */
export function startMissionEndSweep(
  ctx: OrchestratorContext,
  everyMs = END_SWEEP_EVERY_MS,
): () => Promise<void> {
  const sweep = startPeriodic((signal) => recoverMissionEnds(ctx, { stopped: () => signal.aborted }), {
    everyMs,
    firstAfterMs: 0,
    logger: ctx.logger,
    failure: 'could not sweep mission ends',
  });
  return () => sweep.stop();
}

/**
 * What follows a mission's end, whoever ended it (the agent, the owner, a cancel): the
 * mission's browser sessions are ended, then the lifecycle audit entry and the
 * Transcript and OutcomeSummary artifacts are written. Both go through
 * outboxes, so an artifacts-audit outage delays them without failing the request.
 * Callers go through `followUpMissionEnd`, which then removes the mission's `end_pending` mark.
 */
export async function recordMissionEnd(
  ctx: OrchestratorContext,
  mission: MissionDoc,
  endedBy: MissionEndedBy,
): Promise<void> {
  const { household_id: householdId, mission_id: missionId } = mission;
  const how = { by: endedBy.by, actorId: endedBy.actor_id, requestId: endedBy.request_id };
  // First, so the browsers close while the rest is written. Any mission type may have opened
  // one (the model is offered every tool), so any that did has them closed; an INTERACTIVE one
  // always asks, since a turn lost or superseded may have opened one its record does not list.
  if (mission.mission_type === 'INTERACTIVE' || mission.context.sessions.length > 0)
    await ctx.browsers.close({ householdId, missionId, requestId: how.requestId }, 'end');
  await ctx.audit.record(
    householdId,
    {
      missionId,
      category: 'MISSION_LIFECYCLE',
      severity: 'INFO',
      action: mission.state === 'DONE' ? 'MISSION_COMPLETED' : 'MISSION_CANCELLED',
      detail: {
        missionType: mission.mission_type,
        finalState: mission.state,
        endedBy: how.by,
        totalTurns: mission.turns,
      },
      actorId: how.actorId,
      targetType: 'mission',
      targetId: missionId,
    },
    how.requestId,
    missionEndEventId(missionId),
  );
  await ctx.artifacts.write({
    householdId,
    missionId,
    kind: 'transcript',
    requestId: how.requestId,
    body: {
      missionId,
      entries: mission.history.map((m) => ({
        role: m.role,
        content: m.content.slice(0, MAX_ENTRY_CHARS),
        source: m.source,
        createdAt: m.created_at,
      })),
    },
  });
  const outcome = outcomeOf(mission.mission_type, mission.context);
  await ctx.artifacts.write({
    householdId,
    missionId,
    kind: 'outcome-summary',
    requestId: how.requestId,
    body: {
      missionId,
      finalState: mission.state,
      totalTurns: mission.turns,
      toolCallsMade: mission.tool_calls_made,
      keyDecisions: outcome.keyDecisions.map((d) => d.slice(0, 2000)).slice(0, 200),
      resultItems: outcome.resultItems.slice(0, 500),
    },
  });
}
