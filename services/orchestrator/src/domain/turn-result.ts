import type { Message, PlanStep, PlanUpdatedData, TurnCompletedData } from '@hs/contracts';
import type { ToolOutcome } from './agent-model.ts';
import type { MissionDoc } from './mission.ts';

/**
 * What `turn.completed` carries: this turn's messages and tool calls and where the mission now
 * stands (the shopper's brief included), so a replay grows with the turns, not with their square.
 */
export function turnCompleted(
  turnId: string,
  messages: Message[],
  calls: readonly ToolOutcome[],
  mission: MissionDoc,
): TurnCompletedData {
  return {
    turn_id: turnId,
    status: 'completed',
    messages: messages.map(({ tool_calls: _calls, ...message }) => message),
    // Each call's result went out once already, in its tool.result event (same callId).
    tool_calls: calls.map((call, i) => ({
      callId: String(i + 1),
      tool: call.tool,
      args: call.args,
      ok: call.ok,
    })),
    state: mission.state,
    version: mission.updated_at,
    turns: mission.turns,
    brief: mission.brief ?? {},
  };
}

/** What `plan.updated` carries: the steps at `indexes`, not the whole plan. */
export function planUpdated(turnId: string, plan: PlanStep[], indexes: number[]): PlanUpdatedData {
  return { turn_id: turnId, steps: indexes.map((index) => ({ index, ...plan[index]! })) };
}
