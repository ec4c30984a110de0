import type { Caller } from '@hs/service-kit';
import type { OrchestratorContext } from '../context.ts';
import type { MissionDoc } from '../domain/mission.ts';
import { outcomeOf } from '../domain/turn-effects.ts';

const MAX_ENTRY_CHARS = 20_000;

/**
 * What follows a mission's end, whoever ended it (the agent, the owner, a cancel): the
 * mission's browser sessions are ended, then the lifecycle audit entry and the
 * Transcript and OutcomeSummary artifacts are written. Both go through
 * outboxes, so an artifacts-audit outage delays them without failing the request.
 */
export async function recordMissionEnd(
  ctx: OrchestratorContext,
  mission: MissionDoc,
  how: { by: 'agent' | 'owner'; caller: Caller; requestId: string },
): Promise<void> {
  const { household_id: householdId, mission_id: missionId } = mission;
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
      actorId: how.caller.userId,
      targetType: 'mission',
      targetId: missionId,
    },
    how.requestId,
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
