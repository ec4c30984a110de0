import type { ToolName } from '@hs/contracts';
import { DEADLINE_MARGIN_MS, isAppError, remainingBudgetMs } from '@hs/service-kit';
import {
  type CheckedToolCall,
  ModelError,
  type ToolCallRequest,
  type ToolOutcome,
} from '../../domain/agent-model.ts';
import { browserAction } from './browser-action.ts';
import { checkCart } from './check-cart.ts';
import { completeMission } from './complete-mission.ts';
import { createBrowserSession } from './create-browser-session.ts';
import { listWardrobe } from './list-wardrobe.ts';
import { pairWithWardrobe } from './pair-with-wardrobe.ts';
import { prepareCart } from './prepare-cart.ts';
import { requestPurchase } from './request-purchase.ts';
import { searchCommerce } from './search-commerce.ts';
import type { ToolContext, ToolDefinition } from './tool-context.ts';
import { updateBrief } from './update-brief.ts';

/** Every agent tool under its name: keyed by ToolName, so a name without a tool does not compile. */
const REGISTRY: Record<ToolName, ToolDefinition> = {
  list_wardrobe: listWardrobe,
  search_commerce: searchCommerce,
  prepare_cart: prepareCart,
  check_cart: checkCart,
  create_browser_session: createBrowserSession,
  browser_action: browserAction,
  complete_mission: completeMission,
  update_brief: updateBrief,
  pair_with_wardrobe: pairWithWardrobe,
  request_purchase: requestPurchase,
};
for (const [name, tool] of Object.entries(REGISTRY))
  if (tool.name !== name) throw new Error(`Tool registry: ${name} is registered with the tool ${tool.name}`);

export const TOOLS: readonly ToolDefinition[] = Object.values(REGISTRY);
export const TOOL_NAMES: readonly ToolName[] = TOOLS.map((t) => t.name);
const byName = new Map<string, ToolDefinition>(Object.entries(REGISTRY));

/** A proposed call with arguments the tool accepts (defaults applied), or ModelError. */
export function checkToolCall(call: ToolCallRequest): CheckedToolCall {
  const tool = byName.get(call.tool);
  if (!tool)
    throw new ModelError('MODEL_INVALID_TOOL_CALL', `The agent model called an unknown tool "${call.tool}"`);
  const parsed = tool.args.safeParse(call.args ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ModelError(
      'MODEL_INVALID_TOOL_CALL',
      `The agent model called ${call.tool} with invalid arguments (${issue?.path.join('.') || 'args'}: ${issue?.message})`,
    );
  }
  return { tool: tool.name, args: parsed.data as Record<string, unknown> };
}

/** What a tool's call is about, as a family reads it. */
const TOOL_SUBJECT: Partial<Record<ToolName, string>> = {
  search_commerce: 'The shop search',
  list_wardrobe: 'The wardrobe',
  pair_with_wardrobe: 'The wardrobe',
  request_purchase: 'Raising a purchase request',
  prepare_cart: 'Cart preparation',
  check_cart: 'Cart preparation',
  create_browser_session: 'The browser',
  browser_action: 'The browser',
};
/**
 * A peer that failed to answer, as the stream and the reply say it: which part of the product is
 * unavailable, not which internal service timed out after how many milliseconds (that goes to the
 * peer-call log and metrics). The model relays what it reads, so it reads this too.
 */
const PEER_TROUBLE: Record<string, (tool: string) => string> = {
  UPSTREAM_TIMEOUT: (tool) => `${subject(tool)} did not answer in time`,
  UPSTREAM_ERROR: (tool) => `${subject(tool)} is not working right now`,
  SERVICE_UNAVAILABLE: (tool) => `${subject(tool)} is unavailable for a moment`,
};
const subject = (tool: string) => TOOL_SUBJECT[tool as ToolName] ?? 'This step';

/** Runs a checked call. Whatever goes wrong with the peer is the tool's answer, not an exception. */
export async function runToolCall(call: CheckedToolCall, ctx: ToolContext): Promise<ToolOutcome> {
  const tool = REGISTRY[call.tool];
  // Earlier steps (a slow peer) used up the time the caller waits for this turn: the tool is not
  // sent at all, and says so, rather than blaming its peer for "not answering within 0 ms".
  const left = remainingBudgetMs();
  if (left !== undefined && left <= DEADLINE_MARGIN_MS)
    return {
      ok: false,
      tool: call.tool,
      args: call.args,
      error: {
        code: 'UPSTREAM_TIMEOUT',
        message: `${subject(call.tool)} was not tried: earlier steps of this turn used up its time`,
      },
    };
  try {
    const result = tool.result.parse(await tool.run(call.args, ctx));
    return { ok: true, tool: call.tool, args: call.args, result };
  } catch (err) {
    const error = isAppError(err)
      ? { code: String(err.code), message: PEER_TROUBLE[String(err.code)]?.(call.tool) ?? err.message }
      : { code: 'TOOL_FAILED', message: `${call.tool} failed: ${(err as Error).message}` };
    return { ok: false, tool: call.tool, args: call.args, error };
  }
}
