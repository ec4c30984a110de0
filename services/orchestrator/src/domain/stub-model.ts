import type { CheckCartResult, OfferSummary, PrepareCartResult, SearchCommerceResult } from '@hs/contracts';
import { MAX_CALLS_PER_STEP } from './agent-loop.ts';
import type { AgentModel, ModelDecision, ModelInput, ToolCallRequest, ToolOutcome } from './agent-model.ts';
import { readMessage } from './brief/read-message.ts';
import { searchFor } from './brief/relax.ts';
import { updateBrief } from './brief/update-brief.ts';
import { interactiveDecision } from './interactive-decision.ts';
import { describeStandings, winner } from './poll-tally.ts';
import { styleDecision } from './stylist.ts';

/**
 * The deterministic agent (ORCHESTRATOR_REQUIRE_LLM_AGENT=false): it reads constraints from the
 * user's words, calls the real tools for the mission type, and answers with what it found.
 * Same input, same calls, same reply.
 */
export function createStubModel(): AgentModel {
  return { name: 'stub', next: async (input) => decide(input) };
}

const isDone = (text: string) => text.trim().toLowerCase() === 'done';
const REQUEST_ID = /\bpr_[A-Za-z0-9_-]+/;
const RETRY = /\b(retry|try again)\b/i;
/** Check outcomes after which naming the request again does not dispatch it again. */
const CHECKED_SETTLED = new Set(['PREPARING', 'READY', 'COMPLETED', 'CLOSED', 'APPROVAL_NEEDED']);

function decide(input: ModelInput): ModelDecision {
  const step = input.steps.length;
  if (isDone(input.userText)) {
    if (step === 0)
      return tools([{ tool: 'complete_mission', args: {} }], 'The user said done: concluding the mission.');
    return reply(closingLine(input));
  }
  switch (input.missionType) {
    case 'STYLE':
      return styleDecision(input);
    case 'POLL':
      return pollDecision(input);
    case 'CARTPREP':
      return cartDecision(input);
    case 'INTERACTIVE':
      return interactiveDecision(input);
  }
}

const tools = (calls: ToolCallRequest[], reasoning: string): ModelDecision => ({
  kind: 'tools',
  calls,
  reasoning,
});
const reply = (text: string): ModelDecision => ({ kind: 'reply', text });

const price = (o: OfferSummary) =>
  o.price !== undefined ? ` (${o.price}${o.currency ? ` ${o.currency}` : ''})` : '';
const offerLine = (o: OfferSummary) => `${o.title ?? o.offerId}${price(o)}`;
const failure = (o: ToolOutcome) => (o.ok ? '' : o.error.message);
const find = (outcomes: ToolOutcome[], tool: string) => outcomes.find((o) => o.tool === tool);

/**
 * POLL: the message updates the mission's brief like a stylist's does ("summer tops under 50",
 * then "in blue instead"); a search for candidates runs when there are none yet or the message
 * changed what to look for, otherwise the turn reports the standing of the votes.
 */
function pollDecision(input: ModelInput): ModelDecision {
  const reading = readMessage(input.userText);
  const previous = input.brief ?? {};
  const brief = input.steps.length === 0 ? updateBrief(previous, reading).brief : previous;
  const needsSearch = input.context.candidates.length === 0 || reading.intent === 'search';
  if (input.steps.length === 0 && needsSearch)
    return {
      ...tools(
        [{ tool: 'search_commerce', args: { ...searchFor(brief, brief.itemKinds?.[0], 0), limit: 4 } }],
        'Finding candidates for the household to vote on.',
      ),
      brief,
    };
  const search = input.steps[0] && find(input.steps[0], 'search_commerce');
  if (!search) return reply(describeStandings(input.context));
  if (!search.ok) return reply(`I couldn't search offers right now (${failure(search)}).`);
  const offers = (search.result as SearchCommerceResult).items;
  if (offers.length === 0) return reply('No offers match that; tell me a wider budget or other filters.');
  const list = offers.map((o, i) => `${i + 1}) ${offerLine(o)}`).join(', ');
  return reply(
    `Here are ${offers.length} candidates for the household to vote on: ${list}. Like or dislike them; I'll report the standing.`,
  );
}

/**
 * CARTPREP: every turn first checks the carts dispatched earlier and not yet settled (check_cart),
 * then acts on the message: "retry" / "try again" dispatches the failed ones again, a pr_ id
 * is prepared; the reply reports both. A check is one step, the action the next.
 */
function cartDecision(input: ModelInput): ModelDecision {
  const watched = (input.context.cartsPreparing ?? []).slice(-MAX_CALLS_PER_STEP);
  if (watched.length > 0 && input.steps.length === 0)
    return tools(
      watched.map((requestId) => ({ tool: 'check_cart', args: { requestId } })),
      `Checking how cart preparation went for ${watched.join(', ')}.`,
    );
  const checks = watched.length > 0 ? input.steps[0]! : [];
  const actionStep = watched.length > 0 ? 1 : 0;
  const retry = RETRY.test(input.userText);
  // Once the user said retry, a failure report needs no "say retry".
  const reports = checks.map((o) => checkReport(o, !retry));
  if (input.steps.length === actionStep) {
    const action = cartAction(input, checks);
    if (action.calls.length > 0) return tools(action.calls, action.reasoning);
    if (action.nothingToRetry) reports.push('Nothing has failed, so there is nothing to retry.');
    if (reports.length > 0) return reply(reports.join(' '));
    return reply('Tell me which approved purchase request to prepare: its id starts with pr_.');
  }
  const dispatched = input.steps[actionStep]!.map((o) => prepareReport(o, retry));
  return reply([...reports, ...dispatched].join(' '));
}

const checkResults = (checks: ToolOutcome[]) =>
  checks.flatMap((o) => (o.ok ? [o.result as CheckCartResult] : []));

/** Requests whose last cart preparation failed: remembered ones and those this turn's checks found. */
function failedRequests(input: ModelInput, checks: ToolOutcome[]): string[] {
  const found = checkResults(checks)
    .filter((r) => r.outcome === 'FAILED')
    .map((r) => r.requestId);
  return [...new Set([...(input.context.cartsFailed ?? []), ...found])];
}

function cartAction(input: ModelInput, checks: ToolOutcome[]) {
  const prepare = (ids: string[], reasoning: string) => ({
    calls: ids
      .slice(0, MAX_CALLS_PER_STEP)
      .map((requestId) => ({ tool: 'prepare_cart', args: { requestId } })),
    reasoning,
    nothingToRetry: false,
  });
  const named = input.userText.match(REQUEST_ID)?.[0];
  if (RETRY.test(input.userText)) {
    const failed = named ? [named] : failedRequests(input, checks);
    if (failed.length === 0) return { calls: [], reasoning: '', nothingToRetry: true };
    return prepare(failed, `Trying cart preparation again for ${failed.join(', ')}.`);
  }
  // A request this turn's check just reported on is not dispatched again unless it failed.
  const checked = checkResults(checks).find((r) => r.requestId === named);
  if (!named || (checked && CHECKED_SETTLED.has(checked.outcome)))
    return { calls: [], reasoning: '', nothingToRetry: false };
  return prepare([named], `Preparing the cart for ${named}.`);
}

function checkReport(o: ToolOutcome, retryHint: boolean): string {
  const requestId = String(o.args.requestId);
  if (!o.ok) return `I couldn't check the cart for ${requestId} (${failure(o)}).`;
  const r = o.result as CheckCartResult;
  return r.outcome === 'FAILED' && retryHint ? `${r.message} Say "retry" and I'll try again.` : r.message;
}

function prepareReport(o: ToolOutcome, retry: boolean): string {
  const requestId = String(o.args.requestId);
  if (!o.ok) return `I couldn't prepare the cart for ${requestId} (${failure(o)}).`;
  const r = o.result as PrepareCartResult;
  if (r.outcome !== 'DISPATCHED') return r.message;
  return `Cart preparation for ${requestId} has started${retry ? ' again' : ''} (job ${r.cartprepJobId}). I never buy: you confirm the final checkout yourself.`;
}

function closingLine(input: ModelInput): string {
  if (input.missionType === 'POLL') {
    const w = winner(input.context);
    return w
      ? `Mission complete. The household picked ${w.title} (${w.likes} likes).`
      : 'Mission complete. The vote ended without a clear favourite.';
  }
  return 'Mission complete. Everything is saved in the mission history.';
}
