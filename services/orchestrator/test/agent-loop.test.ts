import { describe, expect, it } from 'vitest';
import { checkToolCall, TOOL_NAMES } from '../src/adapters/tools/tool-registry.ts';
import { runAgentTurn, type TurnPorts } from '../src/domain/agent-loop.ts';
import { type AgentModel, type ModelDecision, ModelError } from '../src/domain/agent-model.ts';
import { emptyContext } from '../src/domain/mission.ts';

const scripted = (decide: (step: number) => ModelDecision): AgentModel => ({
  name: 'scripted',
  next: async (input) => decide(input.steps.length),
});

function ports(model: AgentModel, ran: string[]): TurnPorts {
  return {
    model,
    maxSteps: 3,
    tools: TOOL_NAMES,
    checkCall: checkToolCall,
    runTool: async (call) => {
      ran.push(call.tool);
      return { ok: true, tool: call.tool, args: call.args, result: { items: [], nextCursor: null } };
    },
    emit: async () => {},
    renewLease: async () => {},
  };
}

const turn = {
  turnId: 'turn_1',
  missionType: 'STYLE' as const,
  history: [],
  userText: 'hi',
  context: emptyContext(),
  plan: [],
};

describe('agent loop', () => {
  it('stops at the step limit with a reply that says so', async () => {
    const ran: string[] = [];
    const result = await runAgentTurn(
      turn,
      ports(
        scripted(() => ({ kind: 'tools', calls: [{ tool: 'search_commerce', args: {} }] })),
        ran,
      ),
    );
    expect(ran).toHaveLength(3);
    expect(result).toMatchObject({ stepLimitReached: true, completed: false });
    expect(result.reply).toBe('I stopped after 3 steps without a final answer. Tell me how to continue.');
    expect(result.plan).toEqual(Array(3).fill({ step: 'Search matching offers', status: 'DONE' }));
  });

  it('checks every proposed call before running any', async () => {
    const ran: string[] = [];
    const model = scripted(() => ({
      kind: 'tools',
      calls: [
        { tool: 'list_wardrobe', args: {} },
        { tool: 'search_commerce', args: { maxPrice: -5 } },
      ],
    }));
    await expect(runAgentTurn(turn, ports(model, ran))).rejects.toBeInstanceOf(ModelError);
    expect(ran).toEqual([]);
  });

  it('treats an empty reply as a model failure', async () => {
    await expect(
      runAgentTurn(
        turn,
        ports(
          scripted(() => ({ kind: 'reply', text: '  ' })),
          [],
        ),
      ),
    ).rejects.toMatchObject({
      code: 'MODEL_EMPTY_REPLY',
    });
  });

  it('emits the text of a streaming model as reasoning pieces once, and a whole reasoning as one piece', async () => {
    const events: Array<[string, Record<string, unknown>]> = [];
    const model: AgentModel = {
      name: 'mixed',
      next: async (input, hooks) => {
        if (input.steps.length === 0)
          return {
            kind: 'tools',
            calls: [{ tool: 'list_wardrobe', args: {} }],
            reasoning: 'Wardrobe first.',
          };
        await hooks?.onText?.('Here ');
        await hooks?.onText?.('it is.');
        return { kind: 'tools', calls: [{ tool: 'complete_mission', args: {} }], reasoning: 'Here it is.' };
      },
    };
    const base = ports(model, []);
    await runAgentTurn(turn, {
      ...base,
      maxSteps: 2,
      emit: async (type, data) => {
        events.push([type, data]);
      },
    });
    expect(events.filter(([type]) => type === 'reasoning').map(([, data]) => data)).toEqual([
      { turn_id: 'turn_1', step: 0, text: 'Wardrobe first.' },
      { turn_id: 'turn_1', step: 1, text: 'Here ' },
      { turn_id: 'turn_1', step: 1, text: 'it is.' },
    ]);
  });
});
