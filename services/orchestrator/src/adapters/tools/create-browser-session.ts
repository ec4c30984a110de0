// Browser bridge: internal POST /api/v1/sessions {householdId, missionId, startUrl?} → session.
import { BrowserSessionSummary, CreateBrowserSessionArgs } from '@hs/contracts';
import { peerCall, type ToolDefinition } from './tool-context.ts';

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
    const reply = await ctx.peers.bridge.call({
      method: 'POST',
      path: '/api/v1/sessions',
      body: {
        householdId: ctx.householdId,
        missionId: ctx.missionId,
        ...(args.startUrl ? { startUrl: args.startUrl } : {}),
      },
      schema: BrowserSessionSummary,
      ...peerCall(ctx),
    });
    const s = reply.body;
    return {
      sessionId: s.sessionId,
      status: s.status,
      liveViewUrl: s.liveViewUrl ?? null,
      startUrl: s.startUrl ?? null,
    };
  },
};
