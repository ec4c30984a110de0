// Browser bridge: internal POST /api/v1/sessions {householdId, missionId, startUrl?} → session.
import { BrowserElementsResponse, BrowserSessionSummary, CreateBrowserSessionArgs } from '@hs/contracts';
import { peerCall, type ToolDefinition } from './tool-context.ts';

/**
 * The opened page as the agent sees it (GET /api/v1/sessions/{id}/elements): the heading and the
 * names of what it could press. A page that cannot be read leaves the session usable.
 */
async function readPage(
  sessionId: string,
  ctx: Parameters<ToolDefinition<typeof CreateBrowserSessionArgs, typeof BrowserSessionSummary>['run']>[1],
) {
  try {
    const { body } = await ctx.peers.bridge.call({
      method: 'GET',
      path: `/api/v1/sessions/${encodeURIComponent(sessionId)}/elements`,
      schema: BrowserElementsResponse,
      ...peerCall(ctx),
    });
    const named = (roles: string[]) =>
      body.elements.filter((e) => roles.includes(e.role) && e.name).map((e) => e.name);
    return {
      url: body.url,
      heading: named(['heading'])[0] ?? null,
      actions: named(['button', 'link']).slice(0, 20),
    };
  } catch {
    return null;
  }
}

export const createBrowserSession: ToolDefinition<
  typeof CreateBrowserSessionArgs,
  typeof BrowserSessionSummary
> = {
  name: 'create_browser_session',
  description:
    'Opens an interactive remote-browser session for this mission, optionally at a start URL; the user can take it over.',
  args: CreateBrowserSessionArgs,
  result: BrowserSessionSummary,
  async run(args, ctx) {
    const call = peerCall(ctx);
    // The mission's next session has one name: when the bridge made it but its answer was lost
    // (a cut connection, a timeout), the retry (the user's next message) gets that session back
    // instead of a second browser that nobody would close.
    const opened = ctx.browserSessionsOpened ?? 0;
    const reply = await ctx.peers.bridge.call({
      method: 'POST',
      path: '/api/v1/sessions',
      body: {
        householdId: ctx.householdId,
        missionId: ctx.missionId,
        ...(args.startUrl ? { startUrl: args.startUrl } : {}),
      },
      schema: BrowserSessionSummary,
      ...call,
      headers: { ...call.headers, 'idempotency-key': `${ctx.missionId}:browser-session:${opened + 1}` },
    });
    ctx.browserSessionsOpened = opened + 1;
    const s = reply.body;
    return {
      sessionId: s.sessionId,
      status: s.status,
      liveViewUrl: s.liveViewUrl ?? null,
      startUrl: s.startUrl ?? null,
      page: await readPage(s.sessionId, ctx),
    };
  },
};
