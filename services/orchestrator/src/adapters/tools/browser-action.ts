// Browser bridge: GET /api/v1/sessions/{id} (whose session), GET .../elements (read) and
// POST .../agent-action (act).
import {
  BrowserActionArgs,
  BrowserActionResult,
  BrowserAgentActionResult,
  BrowserElementsResponse,
  type BrowserPageView,
  BrowserSession,
} from '@hs/contracts';
import { AppError, invalidState, isAppError, notFound } from '@hs/service-kit';
import { paymentRefusal } from '../../domain/browser-safety.ts';
import { peerCall, type ToolContext, type ToolDefinition } from './tool-context.ts';

/** What the model is shown of a page: enough to choose, small enough to read. */
const MAX_ELEMENTS = 40;
const USER_IN_CONTROL = /user is in control/i;

const sessionPath = (id: string) => `/api/v1/sessions/${encodeURIComponent(id)}`;

async function readElements(sessionId: string, ctx: ToolContext) {
  const { body } = await ctx.peers.bridge.call({
    method: 'GET',
    path: `${sessionPath(sessionId)}/elements`,
    schema: BrowserElementsResponse,
    ...peerCall(ctx),
  });
  return body;
}

function view(page: BrowserElementsResponse): BrowserPageView {
  const named = page.elements.filter((e) => e.name);
  return {
    url: page.url,
    heading: named.find((e) => e.role === 'heading')?.name ?? null,
    elements: named.slice(0, MAX_ELEMENTS).map(({ selector, role, name }) => ({ selector, role, name })),
  };
}

/** The session must be one this mission opened: another mission's (or household's) is not found. */
async function requireOwnSession(sessionId: string, ctx: ToolContext) {
  const { body } = await ctx.peers.bridge.call({
    method: 'GET',
    path: sessionPath(sessionId),
    schema: BrowserSession.pick({ householdId: true, missionId: true, status: true }),
    ...peerCall(ctx),
  });
  if (body.householdId !== ctx.householdId || body.missionId !== ctx.missionId)
    throw notFound('Browser session not found for this mission');
}

/**
 * CLICK and TYPE act on an element read on the current page, so its name, and the page it is
 * on, can be checked first.
 */
async function targetOf(
  args: BrowserActionArgs,
  ctx: ToolContext,
): Promise<{ name: string | null; pageUrl: string | null }> {
  if (args.type !== 'CLICK' && args.type !== 'TYPE') return { name: null, pageUrl: null };
  const page = await readElements(args.sessionId, ctx);
  if (!args.selector) return { name: null, pageUrl: page.url };
  const target = page.elements.find((e) => e.selector === args.selector);
  if (!target)
    throw invalidState(`No element ${args.selector} on the current page; read the page again first`);
  return { name: target.name, pageUrl: page.url };
}

export const browserAction: ToolDefinition<typeof BrowserActionArgs, typeof BrowserActionResult> = {
  name: 'browser_action',
  description:
    "Reads or acts in this mission's browser session. READ returns the page's heading and elements (selector, role, accessible name); NAVIGATE takes url, CLICK a selector read on the page, TYPE text (into a selector, or the focused field); SCROLL, WAIT, SCREENSHOT take nothing. Answers the page after the action. Never pays or places an order: such controls are refused. While the user holds the session, outcome is USER_IN_CONTROL and nothing is done.",
  args: BrowserActionArgs,
  result: BrowserActionResult,
  async run(args, ctx) {
    await requireOwnSession(args.sessionId, ctx);
    const { name: target, pageUrl } =
      args.type === 'READ' ? { name: null, pageUrl: null } : await targetOf(args, ctx);
    const base = { sessionId: args.sessionId, type: args.type, target };
    if (args.type === 'READ')
      return {
        ...base,
        outcome: 'DONE',
        message: 'Read the page.',
        page: view(await readElements(args.sessionId, ctx)),
      };
    const refusal = paymentRefusal(args, target, pageUrl);
    if (refusal) throw new AppError('SAFETY_VIOLATION', 403, refusal);
    const { type, url, selector, text } = args;
    try {
      await ctx.peers.bridge.call({
        method: 'POST',
        path: `${sessionPath(args.sessionId)}/agent-action`,
        body: { type, ...(url ? { url } : {}), ...(selector ? { selector } : {}), ...(text ? { text } : {}) },
        schema: BrowserAgentActionResult.pick({ action: true }),
        ...peerCall(ctx),
      });
    } catch (err) {
      if (isAppError(err) && err.status === 409 && USER_IN_CONTROL.test(err.message))
        return {
          ...base,
          outcome: 'USER_IN_CONTROL',
          message: 'The user has control of the browser; nothing was done until they release it.',
          page: null,
        };
      throw err;
    }
    const page = await readElements(args.sessionId, ctx).catch(() => null);
    return { ...base, outcome: 'DONE', message: `${type} done.`, page: page && view(page) };
  },
};
