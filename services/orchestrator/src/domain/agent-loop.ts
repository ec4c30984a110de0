import type { Brief, Message, MissionType, PlanStep, Role, StreamEventType, ToolName } from '@hs/contracts';
import {
  type AgentModel,
  type CheckedToolCall,
  ModelError,
  type ToolCallRequest,
  type ToolOutcome,
} from './agent-model.ts';
import type { HouseholdPerson } from './brief/for-member.ts';
import { patchBrief, sameBrief } from './brief/update-brief.ts';
import { type MissionContext, STEP_LABELS, setStepStatus } from './mission.ts';
import { planUpdated, trimForClient } from './turn-result.ts';

/**
 * Most tool calls one model step may propose. A model steered by text in a tool result (offer
 * titles are written by merchants) must not be able to fan out into dozens of browser sessions
 * or cart preparations in one step; a proposal beyond this fails the turn before any call runs.
 */
export const MAX_CALLS_PER_STEP = 8;

export interface TurnPorts {
  model: AgentModel;
  maxSteps: number;
  tools: ReadonlyArray<ToolName>;
  /** Checks a proposed call against the tool's argument schema; throws ModelError when it is invalid. */
  checkCall(call: ToolCallRequest): CheckedToolCall;
  /** Runs a checked call; a failing tool comes back as `ok: false`, never as an exception. */
  runTool(call: CheckedToolCall): Promise<ToolOutcome>;
  emit(type: StreamEventType, data: Record<string, unknown>): Promise<void>;
  /** Extends the turn lease so a long but healthy turn is not taken for a crashed one. */
  renewLease(): Promise<void>;
}

export type TurnInput = {
  turnId: string;
  missionType: MissionType;
  history: Message[];
  userText: string;
  context: MissionContext;
  plan: PlanStep[];
  brief?: Brief;
  callerRole?: Role | null;
  members?: readonly HouseholdPerson[];
};

export type TurnResult = {
  reply: string;
  calls: ToolOutcome[];
  plan: PlanStep[];
  /** The agent concluded the mission (complete_mission). */
  completed: boolean;
  stepLimitReached: boolean;
  /** The brief after the turn: the model's updates (a stub decision or update_brief calls). */
  brief: Brief;
};

/**
 * One agent turn as named steps: ask the model; run the tools it proposes (each shown as a plan
 * step going IN_PROGRESS → DONE, with tool.call / tool.result events); feed the results back;
 * stop at its reply or at the step limit. Model failures throw ModelError; tool failures are
 * results the model sees.
 */
export async function runAgentTurn(input: TurnInput, ports: TurnPorts): Promise<TurnResult> {
  const turn_id = input.turnId;
  let plan = [...input.plan];
  const steps: ToolOutcome[][] = [];
  let completed = false;
  let brief = input.brief ?? {};
  // Every change reaches the stream at once, so a client can show "what I understood" mid-turn.
  const setBrief = async (next: Brief) => {
    if (sameBrief(next, brief)) return;
    brief = next;
    await ports.emit('brief.updated', { turn_id, brief });
  };
  for (let step = 0; step < ports.maxSteps; step++) {
    // A streaming model's text reaches the stream piece by piece while it writes; a model that
    // answers at once has its reasoning emitted as one piece. Either way the `text` of a step's
    // `reasoning` events, concatenated in order, is what the model wrote in that step.
    let streamed = false;
    const decision = await ports.model.next(
      {
        missionType: input.missionType,
        history: input.history,
        userText: input.userText,
        steps,
        context: input.context,
        tools: ports.tools,
        brief,
        callerRole: input.callerRole ?? null,
        ...(input.members ? { members: input.members } : {}),
      },
      {
        onText: async (text) => {
          streamed = true;
          await ports.emit('reasoning', { turn_id, step, text });
        },
      },
    );
    if (decision.reasoning && !streamed)
      await ports.emit('reasoning', { turn_id, step, text: decision.reasoning });
    if (decision.brief) await setBrief(decision.brief);
    if (decision.kind === 'reply') {
      if (!decision.text.trim())
        throw new ModelError('MODEL_EMPTY_REPLY', 'The agent model returned an empty reply');
      return {
        reply: decision.text.trim(),
        calls: steps.flat(),
        plan,
        completed,
        stepLimitReached: false,
        brief,
      };
    }
    if (decision.calls.length === 0)
      throw new ModelError('MODEL_INVALID_REPLY', 'The agent model proposed no tool call and no reply');
    if (decision.calls.length > MAX_CALLS_PER_STEP)
      throw new ModelError(
        'MODEL_INVALID_TOOL_CALL',
        `The agent model proposed ${decision.calls.length} tool calls in one step (at most ${MAX_CALLS_PER_STEP})`,
      );
    // Every call is checked before any runs, so an invalid proposal leaves nothing half done.
    const calls = decision.calls.map((c) => ports.checkCall(c));
    const outcomes: ToolOutcome[] = [];
    // A finished call's step goes DONE in the same plan.updated that starts the next one.
    let done: number | null = null;
    for (const [i, call] of calls.entries()) {
      const index = plan.length;
      // Pairs a tool.result with its tool.call (unique within the turn).
      const callId = String(steps.flat().length + outcomes.length + 1);
      plan = [...plan, { step: STEP_LABELS[call.tool], status: 'IN_PROGRESS' }];
      await ports.emit('plan.updated', planUpdated(turn_id, plan, done === null ? [index] : [done, index]));
      await ports.emit('tool.call', { turn_id, callId, tool: call.tool, args: call.args });
      // update_brief is the model's memory, kept here rather than in a peer.
      let outcome: ToolOutcome;
      if (call.tool === 'update_brief') {
        await setBrief(patchBrief(brief, call.args));
        outcome = { ok: true, tool: call.tool, args: call.args, result: { brief } };
      } else outcome = await ports.runTool(call);
      if (outcome.ok && outcome.tool === 'complete_mission') completed = true;
      await ports.emit('tool.result', {
        turn_id,
        callId,
        tool: call.tool,
        ok: outcome.ok,
        ...(outcome.ok ? { result: trimForClient(outcome.result) } : { error: outcome.error }),
      });
      plan = setStepStatus(plan, index, 'DONE');
      done = index;
      const { signature, modelCallId } = decision.calls[i]!;
      outcomes.push({
        ...outcome,
        ...(signature ? { signature } : {}),
        ...(modelCallId ? { modelCallId } : {}),
      });
    }
    if (done !== null) await ports.emit('plan.updated', planUpdated(turn_id, plan, [done]));
    steps.push(outcomes);
    await ports.renewLease();
  }
  return {
    reply: `I stopped after ${ports.maxSteps} steps without a final answer. Tell me how to continue.`,
    calls: steps.flat(),
    plan,
    completed,
    stepLimitReached: true,
    brief,
  };
}

/** How a call is recorded in the message's tool_calls: the result, or the error the tool reported. */
export const recordOf = (o: ToolOutcome) => ({
  tool: o.tool,
  args: o.args,
  result: o.ok ? o.result : { error: o.error },
});
