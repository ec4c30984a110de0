// The live view of a local session: frames from the page's CDP screencast
// (https://chromedevtools.github.io/devtools-protocol/tot/Page/#method-startScreencast) for
// anyone holding a live-view token, and the user's clicks and keys sent to the page while they
// hold the session (USER_TAKEOVER). The agent's actions are refused meanwhile (session machine).
// The link is signed for a member, but membership and roles change while it is valid: each use
// asks the gateway whether its holder may still hold it.
import { forbidden, type HouseholdMembers, invalidState, nowIso } from '@hs/service-kit';
import type { BrowserProvider } from '../adapters/browser-provider.ts';
import type { SessionRepository } from '../adapters/session-repository.ts';
import { type LiveViewGrant, verifyLiveViewToken } from '../domain/live-view-token.ts';
import { isTerminal, recordUserInput } from '../domain/session-machine.ts';
import { mayHoldLiveView } from '../domain/session-owner.ts';

export type LiveInput =
  | { type: 'click'; x: number; y: number }
  | { type: 'key'; key: string }
  | { type: 'text'; text: string }
  | { type: 'scroll'; deltaY: number };

export type Frame = { data: string; width: number; height: number };

/** How often an open live view restarts the session's idle clock (well under any idle timeout). */
const WATCHING_TOUCH_MS = 500;

export function createLiveView(deps: {
  sessions: SessionRepository;
  provider: BrowserProvider;
  secret: string;
  members: HouseholdMembers;
}) {
  /**
   * Whether the link's member (or, for a link signed for no member, the session's owner, whom
   * its takeover acts for) still belongs to the household in a role that may hold a live view:
   * a member removed or demoted to CHILD after reading the session loses it at once.
   */
  async function holderMayUse(grant: LiveViewGrant, requestId?: string): Promise<boolean> {
    const holder = grant.userId || (await deps.sessions.get(grant.sessionId))?.ownerId;
    if (!holder) return true;
    const members = await deps.members.members(grant.householdId, requestId);
    const member = members.find((m) => m.memberId === holder);
    return member !== undefined && mayHoldLiveView(member.role);
  }

  async function livePage(sessionId: string) {
    const session = await deps.sessions.require(sessionId);
    if (isTerminal(session)) throw invalidState(`Browser session is ${session.status}`);
    const handle = { providerSessionId: session.providerSessionId, currentUrl: session.currentUrl };
    const page = deps.provider.livePage?.(handle);
    if (!page) throw invalidState('This session has no live page');
    // Reading the live page restarts its idle clock.
    return { page, touch: () => deps.provider.livePage?.(handle) };
  }

  return {
    async authorize(
      householdId: string,
      sessionId: string,
      token: string | undefined,
      requestId?: string,
    ): Promise<LiveViewGrant> {
      const grant = verifyLiveViewToken(
        deps.secret,
        token,
        { sessionId, householdId },
        Math.floor(Date.now() / 1000),
      );
      if (!grant) throw forbidden('Invalid or expired live view token');
      if (!(await holderMayUse(grant, requestId)))
        throw forbidden('This live view link was issued to a member who may no longer use it');
      return grant;
    },

    /** For an open frame stream: whether its holder may still watch (the token may have expired since). */
    stillHeld: (grant: LiveViewGrant) => holderMayUse(grant),

    status: async (sessionId: string) => (await deps.sessions.require(sessionId)).status,

    /** Streams frames until `stop` is called; acks each so Chromium sends the next. */
    async screencast(sessionId: string, onFrame: (frame: Frame) => void): Promise<() => Promise<void>> {
      const { page, touch } = await livePage(sessionId);
      const cdp = await page.context().newCDPSession(page);
      cdp.on('Page.screencastFrame', (event) => {
        touch();
        onFrame({ data: event.data, width: event.metadata.deviceWidth, height: event.metadata.deviceHeight });
        void cdp.send('Page.screencastFrameAck', { sessionId: event.sessionId }).catch(() => {});
      });
      await cdp.send('Page.startScreencast', { format: 'jpeg', quality: 60, maxWidth: 1280, maxHeight: 800 });
      // A still page sends no frames: someone watching it keeps it open all the same.
      const watching = setInterval(touch, WATCHING_TOUCH_MS);
      watching.unref();
      return async () => {
        clearInterval(watching);
        await cdp.send('Page.stopScreencast').catch(() => {});
        await cdp.detach().catch(() => {});
      };
    },

    /** The user's input: 409 unless they hold the session; logged by kind (never the keys typed). */
    async input(sessionId: string, input: LiveInput): Promise<void> {
      const { page } = await livePage(sessionId);
      await deps.sessions.change(sessionId, (s) =>
        recordUserInput(s, `LIVE_${input.type.toUpperCase()}`, nowIso()),
      );
      if (input.type === 'click') await page.mouse.click(input.x, input.y);
      else if (input.type === 'key') await page.keyboard.press(input.key);
      else if (input.type === 'text') await page.keyboard.type(input.text);
      else await page.mouse.wheel(0, input.deltaY);
    },
  };
}

export type LiveView = ReturnType<typeof createLiveView>;
