import type { MessageSource, MissionType } from '@hs/contracts';
import {
  type Caller,
  conflict,
  forbidden,
  invalidState,
  isAppError,
  keyedId,
  newId,
  notFound,
  nowIso,
} from '@hs/service-kit';
import { ABORT, StoreConflictError } from '@hs/store';
import type { OrchestratorContext } from '../context.ts';
import { parseConstraints } from '../domain/constraint-parser.ts';
import { isTerminal, type MissionDoc, newMissionDoc, turnBlocker } from '../domain/mission.ts';
import { endPendingMark, followUpMissionEnd } from './mission-end.ts';
import { startTurn, TurnAlreadySent } from './run-turn.ts';

const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"']+/i;
const REQUEST_ID = /\bpr_[A-Za-z0-9_-]+/;

/**
 * Creates a RUNNING mission, records it (audit entry, MissionPlan artifact), then runs the
 * first turn with the initial message before answering, so the reply already holds the agent's
 * first answer. A failed first turn still leaves a usable mission (the user can retry).
 */
export async function createMission(
  ctx: OrchestratorContext,
  input: {
    householdId: string;
    caller: Caller;
    missionType: MissionType;
    initialMessage: string;
    source: MessageSource;
    requestId: string;
    /** The client's Idempotency-Key (the gateway passes it on), or null. */
    idempotencyKey?: string | null;
  },
): Promise<MissionDoc> {
  // The roles table: a real browser on merchant sites is for ADULT and PARENT_GUARDIAN only.
  if (input.missionType === 'INTERACTIVE' && input.caller.role === 'CHILD')
    throw forbidden('A CHILD may not start INTERACTIVE missions');
  // Under an Idempotency-Key the mission has one id: when it was made here but the answer was
  // lost on the way back (the gateway then keeps nothing and answers 502/504), the client's retry
  // finds it, as it now is, instead of making a second mission and running its first turn again.
  const missionId = input.idempotencyKey
    ? keyedId('msn', input.idempotencyKey, [input.householdId, input.caller.userId], {
        mission_type: input.missionType,
        initial_message: input.initialMessage,
      })
    : newId('msn');
  const made = input.idempotencyKey ? await ctx.missions.get(input.householdId, missionId) : null;
  if (made) refuseWhileFirstTurnRuns(made, Date.now());
  // Made, and its first turn answered (or ended): the lost answer's retry gets it as it is.
  if (made && (made.history.some((h) => h.role !== 'user') || turnBlocker(made, Date.now()))) return made;
  const mission =
    made ??
    newMissionDoc({
      missionId,
      householdId: input.householdId,
      ownerId: input.caller.userId,
      missionType: input.missionType,
      now: nowIso(),
    });
  if (!made) {
    try {
      await ctx.missions.create(mission);
    } catch (err) {
      // The same key raced in twice: the first one's mission is the answer.
      const first =
        input.idempotencyKey && err instanceof StoreConflictError
          ? await ctx.missions.get(input.householdId, missionId)
          : null;
      if (first) return first;
      throw err;
    }
  }
  // A retry of a create cut off (its process killed) before the first turn answered finishes it:
  // each step below is written once whichever attempt gets there, and the first message is keyed,
  // so an unanswered one is answered rather than sent twice.
  const { household_id: householdId } = mission;
  if (!made || (await ctx.events.lastSeq(missionId)) === 0)
    await ctx.events.append(missionId, 'state.changed', { from: null, to: 'RUNNING' });
  await ctx.audit.record(
    householdId,
    {
      missionId,
      category: 'MISSION_LIFECYCLE',
      severity: 'INFO',
      action: 'MISSION_CREATED',
      detail: { missionType: mission.mission_type },
      actorId: input.caller.userId,
      targetType: 'mission',
      targetId: missionId,
    },
    input.requestId,
    input.idempotencyKey ? keyedId('aud', missionId, ['MISSION_CREATED'], null) : undefined,
  );
  const url = input.initialMessage.match(URL_IN_TEXT)?.[0];
  const requestId = input.initialMessage.match(REQUEST_ID)?.[0];
  await ctx.artifacts.write({
    householdId,
    missionId,
    kind: 'mission-plan',
    requestId: input.requestId,
    body: {
      missionId,
      missionType: mission.mission_type,
      goal: input.initialMessage.slice(0, 2000),
      constraints: parseConstraints(input.initialMessage),
      contextData: { ...(url ? { startUrl: url } : {}), ...(requestId ? { requestId } : {}) },
    },
  });
  let turn: Awaited<ReturnType<typeof startTurn>>;
  try {
    turn = await startTurn(ctx, {
      householdId,
      missionId,
      caller: input.caller,
      text: input.initialMessage,
      source: input.source,
      requestId: input.requestId,
      idempotencyKey: input.idempotencyKey ?? null,
    });
  } catch (err) {
    // Another attempt under the key answered it meanwhile, or runs it now (two retries racing).
    if (err instanceof TurnAlreadySent) return err.mission;
    if (made && isAppError(err) && err.status === 409) throw firstTurnRunning(1);
    // The mission exists, audited and planned: a first turn that could not even start (the store
    // failing under it, or another attempt's turn running) is a failed first turn, so the creator
    // gets the mission (201, RUNNING) to retry in, not an error that makes them create a second one.
    ctx.logger?.warn({ err, missionId }, 'first turn could not start');
    const stored = await ctx.missions.get(householdId, missionId).catch(() => null);
    if (!stored) throw err;
    return stored;
  }
  return (await turn.done).mission;
}

/**
 * A retry that finds the first attempt's turn under its lease: that turn is still running (the
 * answer was lost on the way) or its process died (the lease runs out within seconds). Waiting
 * here would spend the caller's time budget that the first turn needs, so it is 409 (which the
 * gateway does not keep for the key) with Retry-After until the lease ends: the next retry
 * finds the turn answered, or runs it.
 */
function refuseWhileFirstTurnRuns(mission: MissionDoc, now: number): void {
  if (turnBlocker(mission, now) !== 'busy' || mission.history.some((h) => h.role !== 'user')) return;
  const seconds = Math.max(1, Math.ceil(((mission.turn_lease?.expires_at ?? now) - now) / 1000));
  throw firstTurnRunning(seconds);
}

/** 409 with Retry-After: a turn of the mission is someone else's for a few more seconds. */
const firstTurnRunning = (seconds: number) =>
  conflict('A turn of this mission is still running; retry in a few seconds', seconds);

/** The owner ends the mission: complete → DONE, cancel → FAILED. Ending twice is 409 INVALID_STATE. */
export async function endMission(
  ctx: OrchestratorContext,
  input: {
    householdId: string;
    missionId: string;
    caller: Caller;
    finalState: 'DONE' | 'FAILED';
    requestId: string;
  },
): Promise<MissionDoc> {
  const { doc, changed } = await ctx.missions.update(input.missionId, (m) => {
    if (m.household_id !== input.householdId || m.owner_id !== input.caller.userId || isTerminal(m.state))
      return ABORT;
    // With the end, in the same write, the mark that its follow-up is owed (a crash before
    // followUpMissionEnd below leaves it for the sweep).
    return {
      ...m,
      state: input.finalState,
      ...endPendingMark('owner', input.caller, input.requestId),
      updated_at: nowIso(),
    };
  });
  if (!doc || doc.household_id !== input.householdId) throw notFound('Mission not found');
  if (!changed) {
    if (doc.owner_id !== input.caller.userId) throw forbidden('Only the owner of the mission can end it');
    throw invalidState(`Mission is already ${doc.state}`);
  }
  await ctx.events.append(input.missionId, 'state.changed', { from: 'RUNNING', to: input.finalState });
  await followUpMissionEnd(ctx, doc);
  return doc;
}
