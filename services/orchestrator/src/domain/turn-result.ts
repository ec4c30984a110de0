import type { Message, PlanStep, PlanUpdatedData, TurnCompletedData } from '@hs/contracts';
import type { ToolOutcome } from './agent-model.ts';
import type { MissionDoc } from './mission.ts';

/**
 * What `turn.completed` carries: this turn's result and where the mission now stands (the
 * shopper's brief included), so a replay grows with the turns, not with their square. Nothing the
 * turn's earlier events already said is repeated: the reply went out in `message` (`replyId` names
 * it), each call's arguments in `tool.call` and its result in `tool.result` (same `callId`).
 */
export function turnCompleted(
  turnId: string,
  userMessage: Message,
  reply: Message,
  calls: readonly ToolOutcome[],
  mission: MissionDoc,
): TurnCompletedData {
  const { tool_calls: _calls, ...message } = userMessage;
  return {
    turn_id: turnId,
    messages: [message],
    replyId: reply.id,
    tool_calls: calls.map((call, i) => ({ callId: String(i + 1), tool: call.tool, ok: call.ok })),
    state: mission.state,
    version: mission.updated_at,
    turns: mission.turns,
    brief: mission.brief ?? {},
  };
}

/** The assistant Message as the `message` event carries it: its tool calls went out as their own events. */
export function streamedReply(reply: Message): Omit<Message, 'tool_calls'> {
  const { tool_calls: _calls, ...message } = reply;
  return message;
}

/** A tool result as the stream carries it: fields without a value (`null`) left out. */
export function trimForClient(result: unknown): unknown {
  return JSON.parse(JSON.stringify(result ?? null, (_key, value) => (value === null ? undefined : value)));
}

/** What `plan.updated` carries: the steps at `indexes`, not the whole plan. */
export function planUpdated(turnId: string, plan: PlanStep[], indexes: number[]): PlanUpdatedData {
  return { turn_id: turnId, steps: indexes.map((index) => ({ index, ...plan[index]! })) };
}
