import {
  BrowserAgentActionRequest,
  BrowserAgentActionResult,
  BrowserElementsResponse,
  BrowserSession,
  BrowserSessionParams,
  CreateBrowserSessionRequest,
  MissionBrowserSessionsParams,
  SCOPE_HEADERS,
  TerminateMissionSessionsRequest,
  TerminateMissionSessionsResult,
} from '@hs/contracts';
import type { ServiceApp } from '@hs/service-kit';
import { checkBeforeBody, errorResponses, idempotencyKeyOf } from '@hs/service-kit';
import type { FastifyRequest } from 'fastify';
import type { SessionFlows, SessionScope } from '../flows/session-flows.ts';

const tags = ['sessions'];
const security = [{ internalToken: [] }];
const errors = errorResponses(400, 403, 404, 409, 422, 502);
const SCOPE_NOTE = ` With ${SCOPE_HEADERS.householdId} / ${SCOPE_HEADERS.missionId}, a session of another household or mission is 404.`;

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return typeof value === 'string' && value ? value : undefined;
};
const scopeOf = (request: FastifyRequest): SessionScope => ({
  householdId: header(request, SCOPE_HEADERS.householdId),
  missionId: header(request, SCOPE_HEADERS.missionId),
});

/** Service routes for the orchestrator's tools (internal token). */
export function registerSessionRoutes(app: ServiceApp, flows: SessionFlows): void {
  /**
   * The session the path names exists in the caller's scope (404), answered before the body is
   * read (decisions, Conventions); the handlers check the scope again as they act.
   */
  const sessionExists = checkBeforeBody<{ id: string }>({
    find: (p, request) => flows.requireInScope(p.id, scopeOf(request)),
    missing: 'Browser session not found',
  });

  app.post(
    '/api/v1/sessions',
    {
      schema: {
        tags,
        security,
        description:
          "Opens a browser session for a mission (status ACTIVE). The caller identity sent with the call (x-user-id: the mission owner the orchestrator acts for) becomes the session's owner: only they may use it through the household's member routes. With a real browser (BROWSER_PROVIDER local or cloud), a household that already holds BROWSER_MAX_SESSIONS_PER_HOUSEHOLD (default 2) sessions ACTIVE or USER_TAKEOVER gets 429 RATE_LIMITED (Retry-After: 30) until it ends one, so one household cannot hold the whole browser pool; likewise an owner (x-user-id) who already holds BROWSER_MAX_SESSIONS_PER_USER (default 2) such sessions across all their households, so one account with many households cannot either (the household's share is checked first). 502 UPSTREAM_ERROR when the provider fails. With an `Idempotency-Key` header (at most 255 characters) the same key for the same household and mission always names the same session: a repeat (a create whose answer was lost) returns that session, as it now is, instead of opening a second browser.",
        body: CreateBrowserSessionRequest,
        response: { 201: BrowserSession, ...errors, ...errorResponses(429) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await flows.create(request.body, request.caller?.userId ?? null, idempotencyKeyOf(request.headers)),
        ),
  );

  app.get(
    '/api/v1/sessions/:id',
    {
      schema: {
        tags,
        security,
        description: `One session.${SCOPE_NOTE}`,
        params: BrowserSessionParams,
        response: { 200: BrowserSession, ...errors },
      },
    },
    async (request) => {
      await flows.checkScope(request.params.id, scopeOf(request));
      return flows.get(request.params.id);
    },
  );

  const transitions = {
    takeover: 'The user takes control (ACTIVE → USER_TAKEOVER); the mission is told USER_TAKEOVER_START.',
    release: 'The user hands control back (USER_TAKEOVER → ACTIVE); the mission is told USER_TAKEOVER_END.',
    terminate: 'Ends the session (→ TERMINATED); ending an ended session changes nothing.',
  } as const;
  for (const [name, description] of Object.entries(transitions) as Array<
    [keyof typeof transitions, string]
  >) {
    app.post(
      `/api/v1/sessions/:id/${name}`,
      {
        schema: {
          tags,
          security,
          description: `${description}${SCOPE_NOTE}`,
          params: BrowserSessionParams,
          response: { 200: BrowserSession, ...errors },
        },
        onRequest: sessionExists,
      },
      async (request) => {
        await flows.checkScope(request.params.id, scopeOf(request));
        return name === 'terminate'
          ? flows.terminate(request.params.id)
          : flows[name](request.params.id, request.caller?.userId ?? null, request.id);
      },
    );
  }

  app.post(
    '/api/v1/missions/:missionId/sessions/terminate',
    {
      schema: {
        tags,
        security,
        description:
          "Ends every session of the mission still open (ACTIVE or USER_TAKEOVER) in the household named in the body, as terminate ends one: the browser closes and its recording is written. The orchestrator calls it when the mission ends (completed by the agent or the owner, or cancelled), so a finished mission holds no browser and none of the household's places. Lists the sessions it ended; a mission with none open (or ended before) answers an empty list. 502 UPSTREAM_ERROR when the provider fails to end one: the others are ended, and a retry ends the rest.",
        params: MissionBrowserSessionsParams,
        body: TerminateMissionSessionsRequest,
        response: { 200: TerminateMissionSessionsResult, ...errorResponses(403, 422, 502) },
      },
    },
    async (request) => ({
      terminated: await flows.terminateMission(request.body.householdId, request.params.missionId),
    }),
  );

  app.post(
    '/api/v1/sessions/:id/agent-action',
    {
      schema: {
        tags,
        security,
        description: `The agent drives the browser. 400 INVALID_REQUEST: TYPE without text, NAVIGATE without an http(s) url, CLICK without selector. 409 CONFLICT while the user holds the session (USER_TAKEOVER, until release), 409 INVALID_STATE after it ended; 409 CONFLICT when the element stays hidden, covered or disabled (waits up to 5 s, always inside the caller's X-Request-Timeout-Ms). The session stays usable.${SCOPE_NOTE}`,
        params: BrowserSessionParams,
        body: BrowserAgentActionRequest,
        response: { 200: BrowserAgentActionResult, ...errors },
      },
      onRequest: sessionExists,
    },
    async (request) => {
      await flows.checkScope(request.params.id, scopeOf(request));
      return flows.agentAction(request.params.id, request.body);
    },
  );

  app.get(
    '/api/v1/sessions/:id/elements',
    {
      schema: {
        tags,
        security,
        description: `Elements of the current page, for polling.${SCOPE_NOTE}`,
        params: BrowserSessionParams,
        response: { 200: BrowserElementsResponse, ...errors },
      },
    },
    async (request) => {
      await flows.checkScope(request.params.id, scopeOf(request));
      return flows.elements(request.params.id);
    },
  );
}
