// The stub stylist driven the way the orchestrator drives it, for the brief-reader rounds and the
// sizes tests: a conversation's first steps one message after another, or one whole turn through
// the real agent loop against a small catalogue.
import type { Brief, Message, SearchCommerceArgs } from '@hs/contracts';
import { checkToolCall, TOOL_NAMES } from '../src/adapters/tools/tool-registry.ts';
import { runAgentTurn } from '../src/domain/agent-loop.ts';
import type { ModelDecision } from '../src/domain/agent-model.ts';
import { emptyContext } from '../src/domain/mission.ts';
import { createStubModel } from '../src/domain/stub-model.ts';

export const AT = '2026-01-01T00:00:00.000Z';

/** A user's message as the mission's history holds it. */
export const userMessage = (id: string, content: string): Message => ({
  id,
  role: 'user',
  content,
  created_at: AT,
  tool_calls: null,
  source: 'text',
});

/** A search as planned, without its page size and category (which the tests don't judge). */
export type PlannedSearch = Omit<SearchCommerceArgs, 'limit' | 'category'>;
export type FirstStep = {
  kind: ModelDecision['kind'];
  decision: ModelDecision;
  brief: Brief;
  searches: PlannedSearch[];
};

/** The stub stylist's first step for each message in turn: the brief and the searches it plans. */
export async function stubChat(...turns: string[]): Promise<FirstStep[]> {
  const stub = createStubModel();
  const history: Message[] = [];
  let brief: Brief = {};
  const out: FirstStep[] = [];
  for (const [i, text] of turns.entries()) {
    const decision = await stub.next({
      missionType: 'STYLE',
      history: [...history],
      userText: text,
      steps: [],
      context: emptyContext(),
      tools: [],
      brief,
    });
    brief = decision.brief ?? brief;
    const calls = decision.kind === 'tools' ? decision.calls : [];
    const searches = calls
      .filter((c) => c.tool === 'search_commerce')
      .map(({ args }) => {
        const { limit: _limit, category: _category, ...rest } = args as SearchCommerceArgs;
        return rest;
      });
    out.push({ kind: decision.kind, decision, brief, searches });
    const at = new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString();
    history.push(
      { ...userMessage(`u${i}`, text), created_at: at },
      { id: `m${i}`, role: 'model', content: '', created_at: at, tool_calls: [], source: 'text' },
    );
  }
  return out;
}

/** The last message's first step of a conversation. */
export const lastStep = async (...turns: string[]): Promise<FirstStep> => (await stubChat(...turns)).at(-1)!;

/**
 * One whole turn of the stub stylist (the real agent loop, the default step budget) with a fake
 * commerce that answers each search with the catalogue's offers `matches` lets through.
 */
export async function stubTurn<O>(
  userText: string,
  catalogue: readonly O[],
  matches: (offer: O, search: SearchCommerceArgs) => boolean,
) {
  const searched: SearchCommerceArgs[] = [];
  /** Tool calls the model asked for, per step. */
  const perStep: number[] = [];
  const stub = createStubModel();
  const result = await runAgentTurn(
    { turnId: 'turn_1', missionType: 'STYLE', history: [], userText, context: emptyContext(), plan: [] },
    {
      model: {
        name: stub.name,
        next: async (input, hooks) => {
          const decision = await stub.next(input, hooks);
          if (decision.kind === 'tools') perStep.push(decision.calls.length);
          return decision;
        },
      },
      maxSteps: 6,
      tools: TOOL_NAMES,
      checkCall: checkToolCall,
      runTool: async (call) => {
        if (call.tool === 'search_commerce') {
          const search = call.args as SearchCommerceArgs;
          searched.push(search);
          const items = catalogue.filter((o) => matches(o, search));
          return { ok: true, tool: call.tool, args: call.args, result: { items, nextCursor: null } };
        }
        if (call.tool === 'list_wardrobe')
          return { ok: true, tool: call.tool, args: call.args, result: { items: [], count: 0 } };
        return { ok: true, tool: call.tool, args: call.args, result: { completes: [], pairs: [] } };
      },
      emit: async () => {},
      renewLease: async () => {},
    },
  );
  return { ...result, searched, perStep };
}
