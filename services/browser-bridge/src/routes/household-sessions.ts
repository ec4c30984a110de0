import { BrowserElementsResponse, BrowserSession, HouseholdBrowserSessionParams } from '@hs/contracts';
import { checkBeforeBody, errorResponses, NOT_CHILD, requireCaller, type ServiceApp } from '@hs/service-kit';
import { mayHoldLiveView, NOT_THE_OWNER } from '../domain/session-owner.ts';
import type { SessionFlows } from '../flows/session-flows.ts';

const tags = ['household sessions'];
const security = [{ internalToken: [] }];
const errors = errorResponses(401, 403, 404, 409, 502);
const H = '/api/v1/households/:id/browser/sessions/:sessionId';
const OWNER_ONLY = `Only the owner of the session's mission: anyone else gets 403 FORBIDDEN ("${NOT_THE_OWNER}"); a session of another household is 404 NOT_FOUND.`;

/**
 * The routes the gateway forwards for household members (it has checked membership). A
 * session of another household answers 404; one of another member's mission 403 (only its
 * owner may see or drive it), checked before anything is read or changed.
 */
export function registerHouseholdSessionRoutes(app: ServiceApp, flows: SessionFlows): void {
  const schema = (description: string, response: object) => ({
    tags,
    security,
    description,
    params: HouseholdBrowserSessionParams,
    response: { 200: response, ...errors },
  });

  app.get(
    H,
    {
      schema: schema(
        `One browser session of the household. For the local provider, liveViewUrl is a fresh link (5 minutes) to the live view page for the caller; a CHILD (who may not act on sessions) gets liveViewUrl null. ${OWNER_ONLY}`,
        BrowserSession,
      ),
    },
    async (request) => {
      const caller = requireCaller(request);
      const session = await flows.requireMemberSession(
        request.params.id,
        request.params.sessionId,
        caller.userId,
      );
      return flows.present(session, caller.userId, { liveView: mayHoldLiveView(caller.role) });
    },
  );

  app.get(
    `${H}/elements`,
    { schema: schema(`Elements of the current page, for polling. ${OWNER_ONLY}`, BrowserElementsResponse) },
    async (request) => {
      const caller = requireCaller(request);
      await flows.requireMemberSession(request.params.id, request.params.sessionId, caller.userId);
      return flows.elements(request.params.sessionId);
    },
  );

  const actions = {
    takeover: 'The user takes control; the agent is refused until release.',
    release: 'The user hands control back to the agent.',
    terminate: 'Ends the session.',
  } as const;
  /**
   * The session is the household's (404) and the caller's mission's (403), answered before the
   * body is read (decisions, Conventions), after the kit's role check; the handlers check again.
   */
  const memberSession = checkBeforeBody<{ id: string; sessionId: string }>({
    find: (p, request) => flows.requireMemberSession(p.id, p.sessionId, requireCaller(request).userId),
    missing: 'Browser session not found',
  });
  for (const [name, description] of Object.entries(actions) as Array<[keyof typeof actions, string]>) {
    const options = {
      onRequest: memberSession,
      schema: schema(
        `${description} ADULT and PARENT_GUARDIAN only (a CHILD gets 403). ${OWNER_ONLY}`,
        BrowserSession,
      ),
      config: { roles: NOT_CHILD, rolesMessage: 'A CHILD may not act on browser sessions' },
    };
    app.post(`${H}/${name}`, options, async (request) => {
      const caller = requireCaller(request);
      const { id, sessionId } = request.params;
      await flows.requireMemberSession(id, sessionId, caller.userId);
      return name === 'terminate'
        ? flows.terminate(sessionId)
        : flows[name](sessionId, caller.userId, request.id);
    });
  }
}
